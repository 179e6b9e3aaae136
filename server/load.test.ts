/**
 * Load and leaks on loopback: 200 jobs, 500 long-polling watchers and 2,000 sessions opened and
 * abandoned (or as many as LOAD_JOBS, LOAD_WATCHERS and LOAD_SESSIONS say), all at once, with zero failed requests and every job ended; then, once the sessions
 * have gone idle and the jobs are past their retention, the sessions, the job listeners, the long
 * polls, the timers and the heap are back where they began. Prints the p99 of suggest_gifts calls
 * made during the load.
 */
import { getActiveResourcesInfo } from "node:process";
import v8 from "node:v8";
import vm from "node:vm";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { GetJobEventsOutput, TOOL } from "../shared/tools.js";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { matchGifts } from "./gifts/matcher.js";
import { createJobService, type JobService } from "./jobs/job-service.js";
import { createMemoryStore } from "./jobs/stores/memory.js";
import {
  callTool,
  connectClient,
  postRaw,
  startJob,
  startTestServer,
  toolText,
  type TestServer,
} from "../test-kit/servers/test-server.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

// LOAD_JOBS, LOAD_WATCHERS and LOAD_SESSIONS change the scale (vitest.config.ts runs this file alone)
const JOBS = Number(process.env.LOAD_JOBS ?? 200);
const WATCHERS = Number(process.env.LOAD_WATCHERS ?? 500);
const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 2_000);
/** The official clients that the jobs and the watchers share, as a handful of hosts would. */
const CLIENTS = 20;
/** The limits this test states rather than inherits. */
const LIMITS = {
  maxConcurrentJobs: 8,
  sweepIntervalMs: 200,
  // every caller here is the one anonymous subject: its quotas would stop the load, not the server
  maxUnfinishedPerSubject: Infinity,
  maxStartsPerHour: Infinity,
};
const SESSION_IDLE_MS = 3_000;
const DAY = 24 * 60 * 60 * 1000;

/** The job service, counting the event listeners subscribed and the long polls under way. */
function counted(jobs: JobService) {
  const open = { listeners: 0, polls: 0 };
  const service: JobService = {
    ...jobs,
    onEvent(listener) {
      const off = jobs.onEvent(listener);
      open.listeners++;
      let on = true;
      return () => {
        if (on) open.listeners--;
        on = false;
        off();
      };
    },
    async getEvents(args, caller, signal) {
      open.polls++;
      try {
        return await jobs.getEvents(args, caller, signal);
      } finally {
        open.polls--;
      }
    },
  };
  return { service, open };
}

const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const timers = () => getActiveResourcesInfo().filter((r) => r === "Timeout").length;

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000) {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `work(i)` for 0..n-1 with at most `width` under way at once. */
async function pool(n: number, width: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

let server: TestServer;
let skew = 0;
const store = createMemoryStore();
const { service, open } = counted(
  createJobService({ store, match: matchGifts, now: () => Date.now() + skew, limits: LIMITS }),
);
/** Listeners the app keeps for its whole life (the uploads hear when the job an upload fed ends). */
let standing = 0;
beforeAll(async () => {
  server = await startTestServer({ jobs: service, sessionIdleMs: SESSION_IDLE_MS });
  standing = open.listeners;
});
afterAll(() => server?.close());

const sessionCount = async () =>
  ((await (await fetch(`${server.url}/healthz`)).json()) as { sessions: number }).sessions;

type Scale = { jobs: number; watchers: number; sessions: number };
type Figures = {
  jobIds: string[];
  polls: number;
  latencies: number[];
  peak: { heap: number; sessions: number };
  ms: number;
};

/**
 * Runs `scale.jobs` jobs followed by `scale.watchers` long-polling watchers, opens and abandons
 * `scale.sessions` sessions, and calls suggest_gifts one call after another meanwhile; asserts that
 * no request failed and every job completed, and lets the clients go.
 */
async function load(scale: Scale): Promise<Figures> {
  const peak = { heap: 0, sessions: 0 };
  let loaded = true;
  const sampling = (async () => {
    while (loaded) {
      peak.heap = Math.max(peak.heap, process.memoryUsage().heapUsed);
      peak.sessions = Math.max(peak.sessions, await sessionCount());
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const failures: string[] = [];
  const caught = (work: Promise<unknown>, what: string) =>
    work.catch(
      (error) => void failures.push(`${what}: ${String(error)} after ${Math.round(performance.now() - began)} ms`),
    );
  const began = performance.now();
  const clients: Client[] = await Promise.all(Array.from({ length: CLIENTS }, () => connectClient(server.mcpUrl)));

  // small jobs, each followed by two or three watchers from the first event to the last
  const ends = new Map<string, string>();
  let polls = 0;
  const started = Array.from({ length: scale.jobs }, (_, i) =>
    startJob(clients[i % CLIENTS], {
      csv: employeeCsv(10 + ((i * 37) % 100), { seed: i }),
      occasion: "holiday",
      budgetPerPerson: 40,
    }),
  );
  const watch = async (w: number) => {
    const client = clients[w % CLIENTS];
    const { jobId } = await started[w % scale.jobs];
    for (let afterSeq = 0; ;) {
      polls++;
      const result = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq, waitMs: 1_000 });
      if (result.isError) throw new Error(toolText(result));
      const page = GetJobEventsOutput.parse(result.structuredContent);
      afterSeq = page.nextSeq;
      if (page.done) return void ends.set(jobId, page.status);
    }
  };
  const watching = Promise.all(Array.from({ length: scale.watchers }, (_, w) => caught(watch(w), `watcher ${w}`)));

  // sessions opened and never used again nor closed
  const abandoning = pool(scale.sessions, 50, async (i) => {
    const response = await postRaw(
      server.mcpUrl,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: `abandoned-${i}`, version: "1" },
        },
      }),
    );
    await response.text();
    if (response.status !== 200 || !response.headers.get("mcp-session-id"))
      failures.push(`initialize ${i} answered ${response.status}`);
  });

  // meanwhile, one more client asks for suggestions, one call after another
  const latencies: number[] = [];
  const probing = (async () => {
    const probe = await connectClient(server.mcpUrl);
    while (loaded) {
      const t = performance.now();
      const result = await callTool(probe, TOOL.suggestGifts, { occasion: "farewell", budget: 50, recipient: "tea" });
      latencies.push(performance.now() - t);
      if (result.isError) failures.push(toolText(result));
    }
    await probe.close();
  })();

  await Promise.all([watching, caught(abandoning, "sessions"), caught(Promise.all(started), "starts")]);
  const ms = performance.now() - began;
  loaded = false;
  await Promise.all([caught(probing, "probe"), sampling]);
  await Promise.all(clients.map((c) => c.close()));

  expect(failures).toEqual([]);
  expect(ends.size).toBe(scale.jobs);
  expect(new Set(ends.values())).toEqual(new Set(["completed"]));
  const jobIds = (await Promise.all(started)).map((s) => s.jobId);
  return { jobIds, polls, latencies, peak, ms };
}

/** Waits until every session has closed and, with the clock moved past retention, every job is gone. */
async function letGo(jobIds: string[]) {
  await until("every session to close", async () => (await sessionCount()) === 0);
  skew += 2 * DAY;
  await until("every job to expire", async () =>
    (await Promise.all(jobIds.map((id) => store.getJob(id)))).every((job) => job === undefined),
  );
  expect(open).toEqual({ listeners: standing, polls: 0 });
}

it(
  `takes ${JOBS} jobs, ${WATCHERS} watchers and ${SESSIONS} abandoned sessions at once, then lets them all go`,
  { timeout: 240_000 },
  async () => {
    // a round a tenth the size first, so the baseline holds the catalog, the matcher and hot code
    await letGo((await load({ jobs: JOBS / 10, watchers: WATCHERS / 10, sessions: SESSIONS / 10 })).jobIds);
    const baseline = { heap: heapUsed(), timers: timers() };

    const { jobIds, polls, latencies, peak, ms } = await load({ jobs: JOBS, watchers: WATCHERS, sessions: SESSIONS });
    await letGo(jobIds);
    const after = { heap: heapUsed(), timers: timers() };

    const sorted = latencies.sort((a, b) => a - b);
    const p = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
    console.log(
      `load: ${JOBS} jobs, ${WATCHERS} watchers (${polls} long polls), ${SESSIONS} abandoned sessions ` +
        `(at most ${peak.sessions} open at once) in ${Math.round(ms)} ms, 0 failed requests; ` +
        `suggest_gifts during the load: ${latencies.length} calls, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; ` +
        `heap: baseline ${mb(baseline.heap)}, peak ${mb(peak.heap)}, after ${mb(after.heap)}; ` +
        `timers: ${baseline.timers} before, ${after.timers} after`,
    );
    // what the load held (sessions with their servers and event stores, jobs, polls) was released
    expect(after.heap - baseline.heap).toBeLessThan(Math.max(4 * 1024 * 1024, (peak.heap - baseline.heap) / 10));
    expect(after.timers).toBeLessThanOrEqual(baseline.timers);
  },
);
