/**
 * Several instances on one Redis, as deployed: two servers (server/main.ts, STORE=redis,
 * WORKERS=0) and a worker process (server/worker.ts) as child processes. A job started on one
 * instance is followed on the other (and heard on the first one's session); a cancel on either
 * stops it on the worker; a worker killed mid-job leaves one consistent history; a killed server
 * loses nothing it acknowledged; a starting instance leaves running jobs alone; a session is
 * served by every instance (its requests spread over both by nginx configured as deployed,
 * deploy/nginx.conf, round robin without sticky routing; its stream resumed from Redis on another
 * instance when the one serving it dies; ended everywhere at once).
 */
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Redis } from "ioredis";
import type { JobEvent } from "../shared/job-events.js";
import { GetJobEventsOutput, JobResultPageSchema, TOOL, URI } from "../shared/tools.js";
import { PACE_META_KEY } from "./dev-pace.js";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { expectJobHistory } from "../test-kit/job-history.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../test-kit/redis.js";
import { startBalancer, startInstance, type Instance } from "../test-kit/servers/instances.js";
import {
  callTool,
  connectClient,
  openRawSession,
  postRaw,
  readJobHistory,
  readSse,
  startJob,
  toolText,
} from "../test-kit/servers/test-server.js";

const unreachable = await redisUnreachable("the tests of several instances");
const prefix = `giftgenius-test:${randomUUID()}:`;
const env = {
  STORE: "redis",
  REDIS_URL: redisUrl,
  REDIS_PREFIX: prefix,
  GIFTGENIUS_DEV: "1", // jobs may be slowed down, to act on them mid-way
  JOB_LOCK_MS: "1000",
  JOB_STALLED_CHECK_MS: "500",
  JOB_GRACE_MS: "500", // a starting instance looks at every job but the newest
};
const web = () => startInstance("main", { ...env, WORKERS: "0" });
const worker = () => startInstance("worker", { ...env, WORKERS: "2" });
const START = { occasion: "holiday", budgetPerPerson: 50 };

/** A job slow enough to act on while it runs: by default 30,000 rows with a pause between slices (some seconds). */
async function startSlowJob(client: Client, rows = 30_000, paceMs = 20): Promise<string> {
  const result = await client.callTool({
    name: TOOL.startBulk,
    arguments: { ...START, csv: employeeCsv(rows) },
    _meta: { [PACE_META_KEY]: paceMs },
  });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return (result.structuredContent as { jobId: string }).jobId;
}

/** Follows a job with long polls from `afterSeq` until `until` holds for a page; returns the events seen. */
async function follow(
  client: Client,
  jobId: string,
  until: (events: JobEvent[], done: boolean) => boolean = (_, done) => done,
): Promise<JobEvent[]> {
  const events: JobEvent[] = [];
  for (let afterSeq = 0; ;) {
    const result = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq, waitMs: 20_000 });
    if (result.isError) throw new Error(toolText(result));
    const page = GetJobEventsOutput.parse(result.structuredContent);
    events.push(...page.events);
    afterSeq = page.nextSeq;
    if (until(events, page.done)) return events;
  }
}
const progressed = (events: JobEvent[]) => events.some((e) => e.type === "job.progress" && e.payload.percentage > 2);

const admin = unreachable === undefined ? new Redis(redisUrl) : undefined;
const running: Instance[] = [];
const clients: Client[] = [];
const up = async (start: () => Promise<Instance>) => {
  const instance = await start();
  running.push(instance);
  return instance;
};
const connect = async (instance: Instance) => {
  const client = await connectClient(instance.mcpUrl!);
  clients.push(client);
  return client;
};
// one set of instances for the whole file, shared by its groups of tests
let a: Instance, b: Instance, clientA: Client, clientB: Client;
let workers: Instance;
if (unreachable === undefined) {
  beforeAll(async () => {
    [a, b, workers] = await Promise.all([up(web), up(web), up(worker)]);
    [clientA, clientB] = await Promise.all([connect(a), connect(b)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await Promise.all(running.map((i) => i.stop()));
    await deleteKeysUnder(admin!, prefix);
    await admin!.quit();
  });
}

describe.runIf(unreachable === undefined)("several instances on one Redis: a job run by a worker process", () => {
  it("follows on B, with long polls, a job started through A, to its result, and A's session hears it all", async () => {
    const heard: { method: string; params?: Record<string, unknown> }[] = [];
    clientA.fallbackNotificationHandler = async (n) => void heard.push(n);
    const { jobId } = await startJob(clientA, { ...START, csv: employeeCsv(2_000) });
    const seen = await follow(clientB, jobId);
    const { terminal } = expectJobHistory(seen);
    expect(terminal.type).toBe("job.completed");
    // the worker appended them; A, where the session lives, relays each one once, in order
    await vi.waitFor(() => expect(heard.at(-1)?.method).toBe("notifications/job/completed"));
    expect(heard.filter((n) => n.params?.jobId === jobId).map((n) => n.params?.seq)).toEqual(seen.map((e) => e.seq));
    expect((await readJobHistory(clientA, jobId)).events).toEqual(seen);
    const onA = await clientA.readResource({ uri: URI.jobResult(jobId) });
    const onB = await clientB.readResource({ uri: URI.jobResult(jobId) });
    expect(onB).toEqual(onA);
    expect(await countResultPeople(clientB, jobId)).toBe(2_000);
  });

  it("stops a job running on the worker when B cancels it, with no event after the cancel", async () => {
    const jobId = await startSlowJob(clientA);
    await follow(clientB, jobId, progressed);
    const canceled = await callTool(clientB, TOOL.cancelJob, { jobId });
    expect(canceled.structuredContent).toMatchObject({ status: "canceled", changed: true });
    const before = (await readJobHistory(clientA, jobId)).events;
    await new Promise((r) => setTimeout(r, 500)); // time for a worker that missed the cancel to append
    const after = (await readJobHistory(clientA, jobId)).events;
    expect(after).toEqual(before);
    expect(expectJobHistory(after).terminal.type).toBe("job.canceled");
  });

  it("answers stateless requests on any instance", async () => {
    const { jobId } = await startJob(clientA, { ...START, csv: employeeCsv(5) });
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: TOOL.getJobEvents, arguments: { jobId, afterSeq: 0, waitMs: 5_000 } },
    });
    const stateless = await postRaw(b.mcpUrl!, body, { "mcp-protocol-version": "2025-06-18" });
    expect(stateless.status).toBe(200);
    expect(await stateless.text()).toContain(`"jobId":"${jobId}"`);
  });
});

describe.runIf(unreachable === undefined)("several instances on one Redis: instances that die or start", () => {
  it("ends a job whose worker was killed mid-way once, with a history clients can trust", async () => {
    const jobId = await startSlowJob(clientA);
    const seenBefore = await follow(clientB, jobId, progressed);
    await workers.kill(); // no close, no cleanup: its lock on the job simply expires
    workers = await up(worker);
    const seen = [...seenBefore, ...(await follow(clientB, jobId)).slice(seenBefore.length)];
    const history = (await readJobHistory(clientA, jobId)).events;
    expect(history.slice(0, seen.length)).toEqual(seen);
    const { terminal, progress } = expectJobHistory(history);
    expect(terminal).toMatchObject({
      type: "job.failed",
      payload: {
        code: "interrupted",
        retryable: true,
        message: "The worker running this job stopped before finishing.",
      },
    });
    expect(progress.length).toBeGreaterThan(0);
    // the new worker runs new jobs
    const { jobId: next } = await startJob(clientB, { ...START, csv: employeeCsv(50) });
    expect(expectJobHistory(await follow(clientA, next)).terminal.type).toBe("job.completed");
  }, 60_000);

  it("leaves a running job alone when another instance starts up", async () => {
    // some ten slices a second apart: longer than an instance takes to start, and light on the CPU
    const jobId = await startSlowJob(clientA, 2_000, 1_000);
    await follow(clientB, jobId, progressed);
    const c = await up(web);
    const clientC = await connect(c);
    // C answers only once its start-up recovery is done, and by then the job is still running
    const now = await callTool(clientC, TOOL.getJobEvents, { jobId, afterSeq: 0 });
    expect(now.structuredContent).toMatchObject({ status: "running", done: false });
    const seen = await follow(clientC, jobId);
    expect(expectJobHistory(seen).terminal.type).toBe("job.completed");
  }, 60_000);

  it("loses nothing A acknowledged when A is killed: the job runs on, and B reads it all", async () => {
    const doomed = await up(web);
    const clientD = await connect(doomed);
    const { jobId } = await startJob(clientD, { ...START, csv: employeeCsv(3_000) });
    const acknowledged = (await readJobHistory(clientD, jobId)).events;
    await doomed.kill();
    const seen = await follow(clientB, jobId);
    expect(seen.slice(0, acknowledged.length)).toEqual(acknowledged);
    expect(expectJobHistory(seen).terminal.type).toBe("job.completed");
    expect(await countResultPeople(clientB, jobId)).toBe(3_000);
  }, 60_000);
});

describe.runIf(unreachable === undefined)(
  "several instances on one Redis: one session served by every instance",
  () => {
    it("serves one session on every instance behind nginx: requests in turn to A and B, each notification once, in order", async () => {
      const nginx = await startBalancer([a, b]);
      const client = await connectClient(nginx.mcpUrl);
      try {
        const heard: Heard[] = [];
        client.fallbackNotificationHandler = async (n) => void heard.push(n);
        await client.setLoggingLevel("info");
        const jobId = await startSlowJob(client, 3_000, 10);
        await client.subscribeResource({ uri: URI.jobResult(jobId) });
        const seen = await follow(client, jobId);
        await vi.waitFor(() => expect(heard.some((n) => n.method === "notifications/resources/updated")).toBe(true));
        expect(jobSeqs(heard, jobId)).toEqual(seen.map((e) => e.seq));
        expect(heard.filter((n) => n.method === "notifications/message").map((n) => n.params?.data)).toEqual([
          expect.stringContaining("started"),
          expect.stringContaining("completed"),
        ]);
        // the session's requests went to both, as nginx sends them in turn
        expect(new Set(nginx.routed().map((r) => r.port))).toEqual(new Set([a.mcpUrl!.port, b.mcpUrl!.port]));
      } finally {
        await client.close();
        await nginx.close();
      }
    });

    it("resumes the notification stream on B, from Redis, after the instance serving it is killed", async () => {
      const doomed = await up(web);
      // the stream goes to the doomed instance while it lives, everything else to B
      const router = createRouter((method) => (method === "GET" && !doomed.gone() ? [doomed] : [b]));
      const client = await connectThrough(router);
      const heard: Heard[] = [];
      client.fallbackNotificationHandler = async (n) => void heard.push(n);
      const jobId = await startSlowJob(client, 20_000, 10);
      await vi.waitFor(() => expect(jobSeqs(heard, jobId).length).toBeGreaterThan(3), { timeout: 20_000 });
      await doomed.kill();
      const seen = await follow(clientB, jobId);
      await vi.waitFor(() => expect(jobSeqs(heard, jobId)).toEqual(seen.map((e) => e.seq)), { timeout: 20_000 });
      // B was asked to resume after the last event the client had, and replayed what came after it
      expect(router.resumedAt.get(b.mcpUrl!.port)).toEqual([expect.stringMatching(/^\d+-\d+$/)]);
      await client.close();
    }, 60_000);

    it("replays the stream from Redis after any Last-Event-ID it gave, on another instance", async () => {
      const session = await openRawSession(a.mcpUrl!);
      const headers = session.headers;
      const onA = readSse(await fetch(a.mcpUrl!, { headers: { accept: "text/event-stream", ...headers } }));
      const started = await session.request("tools/call", {
        name: TOOL.startBulk,
        arguments: { ...START, csv: employeeCsv(20_000) },
        _meta: { [PACE_META_KEY]: 10 },
      });
      const { jobId } = (started.result as { structuredContent: { jobId: string } }).structuredContent;
      const first = [await onA.next(), await onA.next(), await onA.next(), await onA.next()];
      await onA.close();
      // resumes after the second: the two after it again, as A sent them, then the rest from the job log
      const onB = readSse(
        await fetch(b.mcpUrl!, { headers: { accept: "text/event-stream", "last-event-id": first[1].id!, ...headers } }),
      );
      expect([await onB.next(), await onB.next()]).toEqual(first.slice(2));
      const seqs = first.map((e) => JSON.parse(e.data).params.seq);
      for (;;) {
        const { params } = JSON.parse((await onB.next()).data);
        seqs.push(params.seq);
        if (params.type !== "job.progress") break;
      }
      expect(seqs).toEqual((await readJobHistory(clientB, jobId)).events.map((e) => e.seq));
      await onB.close();
    }, 60_000);

    it("ends a session everywhere on DELETE, and moves its stream to the instance that opened it last", async () => {
      const { headers } = await openRawSession(a.mcpUrl!);
      const onA = await openStream(a.mcpUrl!, headers);
      const onB = await openStream(b.mcpUrl!, headers);
      // A's stream ends: a session has one notification stream, wherever it was opened last
      expect(await onA.read()).toEqual({ done: true, value: undefined });
      const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
      expect((await postRaw(b.mcpUrl!, ping, headers)).status).toBe(200);
      const deleted = await fetch(b.mcpUrl!, { method: "DELETE", headers });
      expect(deleted.status).toBe(200);
      expect(await onB.read()).toEqual({ done: true, value: undefined });
      for (const instance of [a, b]) {
        const after = await postRaw(instance.mcpUrl!, ping, headers);
        expect(after.status).toBe(404);
        expect(await after.json()).toMatchObject({ error: { code: -32001 } });
      }
    });
  },
);

type Heard = { method: string; params?: Record<string, unknown> };
const jobSeqs = (heard: Heard[], jobId: string) =>
  heard.filter((n) => n.method.startsWith("notifications/job/") && n.params?.jobId === jobId).map((n) => n.params?.seq);

/** A router as a client's fetch, for faults no balancer makes on its own: each request to the next of `pick(method)`. */
function createRouter(pick: (method: string) => Instance[]) {
  let turn = 0;
  const resumedAt = new Map<string, string[]>();
  const fetchVia = async (input: string | URL | Request, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const choice = pick(method);
    const target = new URL(String(input instanceof Request ? input.url : input));
    target.port = choice[turn++ % choice.length].mcpUrl!.port;
    const resumed = new Headers(init?.headers).get("last-event-id");
    if (resumed !== null) resumedAt.set(target.port, [...(resumedAt.get(target.port) ?? []), resumed]);
    return fetch(target, init);
  };
  return { fetch: fetchVia, resumedAt };
}

async function connectThrough(router: ReturnType<typeof createRouter>): Promise<Client> {
  const client = new Client({ name: "giftgenius-test", version: "1.0.0" });
  // any of the instances: the router picks the port
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:1/mcp"), { fetch: router.fetch }));
  return client;
}

/** A raw notification stream's reader. */
async function openStream(mcpUrl: URL, headers: Record<string, string>) {
  const response = await fetch(mcpUrl, { headers: { accept: "text/event-stream", ...headers } });
  expect(response.status).toBe(200);
  return response.body!.getReader();
}

/** The people in a job's result resource, read part by part. */
async function countResultPeople(client: Client, jobId: string): Promise<number> {
  let people = 0;
  for (let uri: string | null = URI.jobResult(jobId); uri !== null;) {
    const [content] = (await client.readResource({ uri })).contents;
    const part = JobResultPageSchema.parse(JSON.parse("text" in content ? content.text : ""));
    people += part.people.length;
    uri = part.next;
  }
  return people;
}
