/**
 * No single request stalls everyone: the worst input of each shape goes to a real server over HTTP
 * (one huge cell, many tiny rows, deep quoting, a million interests as CSV and as an employees
 * list, an 8 MB single line, the most interests and the longest cells the limits let through) and
 * the staff-file reader gets the worst files, while `monitorEventLoopDelay` measures the process's
 * event loop and `/healthz` is asked every 100 ms. Every probe must be answered. The loop's p99 and
 * longest stall are printed for the record: times are the bench's to judge (`npm run bench`, input,
 * holds the longest stall of each shape, from `test-kit/worst-inputs.ts` as here, under 250 ms), as
 * a loaded machine's clock says little.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { resolveLimits } from "../limits.js";
import { readStaffFile } from "../files/read/staff-file.js";
import { startTestServer, type TestServer } from "../../test-kit/servers/test-server.js";
import { words, worstCsvs, worstFiles } from "../../test-kit/worst-inputs.js";

/** The shortest watch: the request, then its aftermath. */
const WINDOW_MS = 2_000;
const MB = 1024 * 1024;
const ANONYMOUS = { subject: "anonymous" };

let server: TestServer;
let dir: string;
let files = 0;
beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), "worst-input-"));
  // a server under attack has served before, large requests too: its code is loaded and compiled,
  // its heap grown
  const warmUp = [
    "name,department,interests\nA,D,tea\n",
    "name\nA\n",
    `name,interests\nA,${"x".repeat(8 * MB - 100)}\n`,
  ];
  for (const csv of warmUp) await start(bodyFile(startBody({ csv })));
}, 60_000);
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

type Loop = { p99: number; max: number; probes: number; unanswered: number };

/**
 * Runs `work` while the event loop's delay is recorded and `/healthz` is asked every 100 ms, for
 * at least WINDOW_MS; the figures are printed for the record.
 */
async function underWatch(name: string, work: () => Promise<void>): Promise<Loop> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let probes = 0;
  let unanswered = 0;
  const pending: Promise<void>[] = [];
  const probe = setInterval(() => {
    probes++;
    pending.push(
      fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) })
        .then((r) => {
          if (r.status !== 200) unanswered++;
          return r.body?.cancel();
        })
        .catch(() => void unanswered++),
    );
  }, 100);
  histogram.enable();
  const until = performance.now() + WINDOW_MS;
  try {
    await work();
    // the watch covers the request and what follows it: a window long enough for p99 to speak of
    // the loop's turns (a hundred and more of them), not of the one stall the max already bounds
    const rest = until - performance.now();
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  } finally {
    histogram.disable();
    clearInterval(probe);
  }
  await Promise.all(pending);
  const loop = {
    p99: histogram.percentile(99) / 1e6,
    max: histogram.max / 1e6,
    probes,
    unanswered,
  };
  console.log(
    `event loop · ${name}: p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms, ${probes} probes, ${unanswered} unanswered`,
  );
  return loop;
}

function expectResponsive(loop: Loop) {
  expect(loop.probes).toBeGreaterThan(0);
  expect(loop.unanswered).toBe(0);
}

/** The body of a start call, built before the watch begins (building it is the client's work). */
const startBody = (args: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "start_bulk_gift_analysis", arguments: { occasion: "holiday", budgetPerPerson: 40, ...args } },
  });

type ToolReply = {
  isError?: boolean;
  structuredContent?: { jobId?: string; error?: { code: string; message: string } };
};

/**
 * A client in a process of its own: it reads a request body from a file, posts it, and prints the
 * reply. The test process then holds only the server (and the probes), as in production.
 */
const CLIENT = `
const [url, file] = process.argv.slice(1);
fetch(url, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: require("node:fs").readFileSync(file),
}).then((r) => r.text()).then((t) => process.stdout.write(t), (e) => { console.error(e); process.exit(1); });
`;

/** Writes a request body where the client process will read it: before the watch begins. */
function bodyFile(body: string): string {
  const file = join(dir, `body-${files++}.json`);
  writeFileSync(file, body);
  return file;
}

async function post(file: string): Promise<ToolReply> {
  const child = spawn(process.execPath, ["-e", CLIENT, server.mcpUrl.href, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let text = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  const [code] = (await once(child, "exit")) as [number];
  expect(code).toBe(0);
  const json = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}");
  return (JSON.parse(json) as { result?: ToolReply }).result ?? {};
}

/** Sends a start from a client process and, for a job that starts, waits for its end. */
async function start(file: string): Promise<ToolReply> {
  const reply = await post(file);
  const jobId = reply.structuredContent?.jobId;
  if (jobId !== undefined) {
    for (let done = false; !done;) {
      const waited = await server.jobs.waitFor({ jobId, timeoutMs: 20_000 }, ANONYMOUS, () => {});
      if (!waited.ok) throw new Error(waited.error.message);
      done = waited.value.done;
      if (done) expect(waited.value.status).toBe("completed");
    }
    // its result goes, as retention would take it: the next input is not measured against a heap
    // that holds every job before it
    expect((await server.jobs.delete({ jobId }, ANONYMOUS)).ok).toBe(true);
  }
  return reply;
}

describe("the worst input of each shape, over HTTP", () => {
  const csv = (text: string) => startBody({ csv: text });
  const refused = worstCsvs().filter(([, , code]) => code !== null);
  const run = worstCsvs().filter(([, , code]) => code === null);

  it.each(refused)(
    "refuses %s at once, the server answering meanwhile",
    { timeout: 60_000 },
    async (name, build, code) => {
      const file = bodyFile(csv(build()));
      let reply: ToolReply = {};
      const loop = await underWatch(name, async () => {
        reply = await start(file);
      });
      expect(reply).toMatchObject({ isError: true, structuredContent: { error: { code } } });
      expectResponsive(loop);
    },
  );

  it(
    "refuses deep quoting at the CSV limit (8 MB of quotes, a 16 MB request), every probe answered",
    { timeout: 60_000 },
    async () => {
      // the body parser (server/mcp/http/http-body.ts, over server/http/json-worker.ts) parses its 16 MB of escapes in a worker
      // thread: the figures are printed, the bounds held to the 8 MB requests above
      const file = bodyFile(csv(`name,department,interests\nA,D,"${'""'.repeat(4 * MB - 64)}"\n`));
      let reply: ToolReply = {};
      const loop = await underWatch("deep quoting at the CSV limit (a 16 MB request)", async () => {
        reply = await start(file);
      });
      expect(reply).toMatchObject({ isError: true, structuredContent: { error: { code: "input_too_large" } } });
      expect(loop.unanswered).toBe(0);
    },
  );

  describe("1,000,000 interests as employees", () => {
    let file: string;
    beforeAll(() => {
      file = bodyFile(startBody({ employees: [{ name: "A", department: "D", interests: words(1_000_000) }] }));
    });

    it("refuses them by the interests limit, and every probe is answered", { timeout: 60_000 }, async () => {
      let reply: ToolReply = {};
      const loop = await underWatch("1,000,000 interests as employees", async () => {
        reply = await start(file);
      });
      expect(reply).toMatchObject({
        isError: true,
        structuredContent: {
          error: { code: "input_too_large", message: expect.stringContaining("Employee 1 lists 1,000,000 interests") },
        },
      });
      expect(loop.unanswered).toBe(0);
    });

    // the body parser (server/mcp/http/http-body.ts) takes a body this large to a worker thread:
    // the loop pays only for the parsed value's copy, not for the JSON.parse of a million strings
    it("… and the event loop is never held meanwhile", { timeout: 60_000 }, async () => {
      expectResponsive(await underWatch("1,000,000 interests as employees, again", () => start(file).then(() => {})));
    });
  });

  it.each(run)("runs %s, the server answering meanwhile", { timeout: 300_000 }, async (name, build) => {
    const body = csv(build());
    expect(body.length).toBeLessThan(8.5 * MB);
    const file = bodyFile(body);
    let reply: ToolReply = {};
    const loop = await underWatch(name, async () => {
      reply = await start(file);
    });
    expect(reply.isError).toBeFalsy();
    expectResponsive(loop);
  });
});

describe("the worst staff files, read on the server", () => {
  const limits = resolveLimits();

  it.each(worstFiles())(
    "reads %s, the server answering meanwhile",
    { timeout: 120_000 },
    async (name, build, readable) => {
      const bytes = await build();
      let ok = false;
      const loop = await underWatch(name, async () => {
        ok = (await readStaffFile(bytes, "staff", {}, limits)).ok;
      });
      expect(ok).toBe(readable);
      expectResponsive(loop);
    },
  );
});
