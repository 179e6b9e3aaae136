/**
 * Several instances on one Redis, as deployed: two servers (server/main.ts, STORE=redis,
 * WORKERS=0) and a worker process (server/worker.ts) as child processes. A job started on one
 * instance is followed on the other (and heard on the first one's session); a cancel on either
 * stops it on the worker; a worker killed mid-job leaves one consistent history; a killed server
 * loses nothing it acknowledged; a starting instance leaves running jobs alone. Behind nginx
 * configured as deployed (deploy/nginx.conf), a session stays on the instance that opened it while
 * everything else spreads over both; when that instance dies, the client is told its session is
 * gone (404), opens another on the live instance and follows the same job to its end.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Redis } from "ioredis";
import type { JobEvent } from "../shared/job-events.js";
import { GetJobEventsOutput, JobResultPageSchema, TOOL, URI } from "../shared/tools.js";
import { PACE_META_KEY } from "./dev-pace.js";
import { requestModern } from "../test-kit/modern-client.js";
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
/** A web instance; tagged `a` or `b` to stand behind nginx where deploy/nginx.conf routes that tag. */
const web = (tag?: string) => startInstance("main", { ...env, WORKERS: "0", ...(tag && { INSTANCE_ID: tag }) });
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

/** Follows a job with long polls after `from` until `until` holds for a page; returns the events seen. */
async function follow(
  client: Client,
  jobId: string,
  until: (events: JobEvent[], done: boolean) => boolean = (_, done) => done,
  from = 0,
): Promise<JobEvent[]> {
  const events: JobEvent[] = [];
  for (let afterSeq = from; ;) {
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
    [a, b, workers] = await Promise.all([up(() => web("a")), up(() => web("b")), up(worker)]);
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
  "several instances on one Redis behind nginx: a session stays on the instance that opened it",
  () => {
    it("sends a session's every request to its instance while the rest spread over both: each notification once, in order", async () => {
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
        const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
        for (let i = 0; i < 3; i++) {
          const stateless = await postRaw(nginx.mcpUrl, list, { "mcp-protocol-version": "2025-06-18" });
          expect(stateless.status).toBe(200);
          await stateless.text();
          expect((await requestModern(nginx.mcpUrl, "tools/list")).status).toBe(200);
        }
        const sessionId = sessionOf(client);
        const home = sessionId.startsWith("a.") ? a : b;
        const routed = nginx.routed();
        const ofSession = routed.filter((r) => r.session === sessionId).map((r) => r.port);
        expect(ofSession.length).toBeGreaterThan(5);
        expect(new Set(ofSession)).toEqual(new Set([home.mcpUrl!.port]));
        const rest = routed.filter((r) => r.session === undefined).map((r) => r.port);
        expect(new Set(rest)).toEqual(new Set([a.mcpUrl!.port, b.mcpUrl!.port]));
      } finally {
        await client.close();
        await nginx.close();
      }
    });

    it("replays the notification stream after a Last-Event-ID it gave, from the session's instance", async () => {
      const nginx = await startBalancer([a, b]);
      try {
        const session = await openRawSession(nginx.mcpUrl);
        const headers = { accept: "text/event-stream", ...session.headers };
        const first = readSse(await fetch(nginx.mcpUrl, { headers }));
        const started = await session.request("tools/call", {
          name: TOOL.startBulk,
          arguments: { ...START, csv: employeeCsv(20_000) },
          _meta: { [PACE_META_KEY]: 10 },
        });
        const { jobId } = (started.result as { structuredContent: { jobId: string } }).structuredContent;
        const heard = [await first.next(), await first.next(), await first.next(), await first.next()];
        await first.close();
        // resumes after the second: the two after it again, as they were sent, then the rest
        const again = readSse(await fetch(nginx.mcpUrl, { headers: { ...headers, "last-event-id": heard[1].id! } }));
        expect([await again.next(), await again.next()]).toEqual(heard.slice(2));
        const seqs = heard.map((e) => JSON.parse(e.data).params.seq);
        for (;;) {
          const { params } = JSON.parse((await again.next()).data);
          seqs.push(params.seq);
          if (params.type !== "job.progress") break;
        }
        expect(seqs).toEqual((await readJobHistory(clientB, jobId)).events.map((e) => e.seq));
        await again.close();
        const ports = nginx
          .routed()
          .filter((r) => r.session === session.sessionId)
          .map((r) => r.port);
        expect(new Set(ports).size).toBe(1);
      } finally {
        await nginx.close();
      }
    }, 60_000);

    it("tells the client its session is gone when its instance dies; a new one on the live instance follows the job to its end", async () => {
      const doomed = await up(() => web("a"));
      const nginx = await startBalancer([doomed, b]);
      try {
        // nginx sends each initialize to the next instance: the second goes to the doomed one, if the first did not
        let client = await connectClient(nginx.mcpUrl);
        if (!sessionOf(client).startsWith("a.")) {
          await client.close();
          client = await connectClient(nginx.mcpUrl);
        }
        expect(sessionOf(client)).toMatch(/^a\./);
        const heard: Heard[] = [];
        client.fallbackNotificationHandler = async (n) => void heard.push(n);
        const jobId = await startSlowJob(client, 20_000, 10);
        await vi.waitFor(() => expect(jobSeqs(heard, jobId).length).toBeGreaterThan(3), { timeout: 20_000 });
        await doomed.kill();
        const before = jobSeqs(heard, jobId) as number[];
        // nginx hands the session's requests to B, which does not hold it: 404, as the spec says
        await expect(client.listTools()).rejects.toMatchObject({ code: 404 });
        await client.close();

        const again = await connectClient(nginx.mcpUrl);
        clients.push(again);
        expect(sessionOf(again)).toMatch(/^b\./);
        const told: Heard[] = [];
        again.fallbackNotificationHandler = async (n) => void told.push(n);
        const uri = URI.jobResult(jobId);
        await again.subscribeResource({ uri });
        const rest = await follow(again, jobId, undefined, before.at(-1));
        const history = (await readJobHistory(again, jobId)).events;
        // each event heard once, in order, and what the new session read takes up right after
        expect([...before, ...rest.map((e) => e.seq)]).toEqual(history.map((e) => e.seq));
        expect(expectJobHistory(history).terminal.type).toBe("job.completed");
        await vi.waitFor(() =>
          expect(told).toContainEqual(
            expect.objectContaining({ method: "notifications/resources/updated", params: { uri } }),
          ),
        );
        expect(await countResultPeople(again, jobId)).toBe(20_000);
      } finally {
        await nginx.close();
      }
    }, 90_000);

    it("ends a session on DELETE: its stream closes and its id is unknown everywhere", async () => {
      const nginx = await startBalancer([a, b]);
      try {
        const { headers } = await openRawSession(nginx.mcpUrl);
        const stream = await openStream(nginx.mcpUrl, headers);
        const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
        expect((await postRaw(nginx.mcpUrl, ping, headers)).status).toBe(200);
        const deleted = await fetch(nginx.mcpUrl, { method: "DELETE", headers });
        expect(deleted.status).toBe(200);
        expect(await stream.read()).toEqual({ done: true, value: undefined });
        for (const url of [nginx.mcpUrl, a.mcpUrl!, b.mcpUrl!]) {
          const after = await postRaw(url, ping, headers);
          expect(after.status).toBe(404);
          expect(await after.json()).toMatchObject({ error: { code: -32001 } });
        }
      } finally {
        await nginx.close();
      }
    });
  },
);

type Heard = { method: string; params?: Record<string, unknown> };
const jobSeqs = (heard: Heard[], jobId: string) =>
  heard.filter((n) => n.method.startsWith("notifications/job/") && n.params?.jobId === jobId).map((n) => n.params?.seq);

/** The id of the client's session. */
const sessionOf = (client: Client) => (client.transport as StreamableHTTPClientTransport).sessionId ?? "";

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
