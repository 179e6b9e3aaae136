/**
 * Several instances on one Redis in the 2026-07-28 era: two servers (server/main.ts, STORE=redis,
 * WORKERS=0) and a worker process (server/worker.ts), with clients' requests spread over both
 * servers in turn by a balancer without sticky routing. A job is followed with long polls and a
 * task with `tasks/get`, each on both servers; a listen stream on one server tells a task started
 * on the other to its end; a `tasks/cancel` on one server stops, on the worker, a task started on
 * the other.
 */
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import type { JobEvent } from "../shared/job-events.js";
import { GetJobEventsOutput, JobResultPageSchema, StartBulkOutput, TOOL, URI } from "../shared/tools.js";
import { PACE_META_KEY } from "./dev-pace.js";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { expectJobHistory } from "../test-kit/job-history.js";
import { connectModernClient, postModern, requestModern, taskSession, withTasks } from "../test-kit/modern-client.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../test-kit/redis.js";
import { startBalancer, startInstance, type Balancer, type Instance } from "../test-kit/servers/instances.js";
import { JOB_QUEUE } from "./jobs/executor-bullmq.js";
import { readSse } from "../test-kit/servers/test-server.js";

const unreachable = await redisUnreachable("the 2026-07-28 tests of several instances");
const prefix = `giftgenius-test:${randomUUID()}:`;
const env = {
  STORE: "redis",
  REDIS_URL: redisUrl,
  REDIS_PREFIX: prefix,
  GIFTGENIUS_DEV: "1", // jobs may be slowed down, to follow them across instances while they run
};
const START = { occasion: "holiday", budgetPerPerson: 50 };
/** Rows and pace of a job that runs some seconds in some ten slices, light on a busy machine's CPU. */
const ROWS = 2_000;
const PACE_MS = 500;

type ToolReply = { isError?: unknown; content?: unknown; structuredContent?: unknown };
type GetJobEvents = (args: { jobId: string; afterSeq: number; waitMs: number }) => Promise<ToolReply | undefined>;

/** Follows a job with `get_job_events` long polls until `until` holds; returns the events seen. */
async function follow(
  call: GetJobEvents,
  jobId: string,
  until: (events: JobEvent[], done: boolean) => boolean = (_, done) => done,
): Promise<JobEvent[]> {
  const events: JobEvent[] = [];
  for (let afterSeq = 0; ;) {
    const result = await call({ jobId, afterSeq, waitMs: 20_000 });
    if (result === undefined || result.isError) throw new Error(`get_job_events: ${JSON.stringify(result)}`);
    const page = GetJobEventsOutput.parse(result.structuredContent);
    events.push(...page.events);
    afterSeq = page.nextSeq;
    if (until(events, page.done)) return events;
  }
}
const progressed = (events: JobEvent[]) => events.some((e) => e.type === "job.progress" && e.payload.percentage > 2);

/** `get_job_events` through raw framed requests to one instance. */
const eventsOn =
  (instance: Instance): GetJobEvents =>
  async (args) =>
    (await requestModern(instance.mcpUrl!, "tools/call", { name: TOOL.getJobEvents, arguments: args })).result;

/** Starts the bulk analysis as a task on `instance`, paced; returns the task id (the job id). */
async function startTask(instance: Instance, rows = ROWS, paceMs = PACE_MS): Promise<string> {
  const reply = await requestModern(
    instance.mcpUrl!,
    "tools/call",
    { name: TOOL.startBulk, arguments: { ...START, csv: employeeCsv(rows) } },
    { capabilities: withTasks, meta: { [PACE_META_KEY]: paceMs } },
  );
  expect(reply.result).toMatchObject({ resultType: "task", status: "working", taskId: expect.any(String) });
  return reply.result!.taskId as string;
}

/** The task as `instance` tells it. */
async function taskOn(instance: Instance, taskId: string): Promise<Record<string, unknown> | undefined> {
  return (await requestModern(instance.mcpUrl!, "tasks/get", { taskId }, { capabilities: withTasks })).result;
}

type Told = { taskId: string; messages: { method: string; params: Record<string, unknown> }[] };

/**
 * Starts a task on `startOn` and listens for it and its result on `listenOn` while it runs;
 * returns what the stream told once the task has ended and the stream has told that it did (or
 * had a generous while to).
 */
async function listenWhileItRuns({ startOn, listenOn }: { startOn: Instance; listenOn: Instance }): Promise<Told> {
  const taskId = await startTask(startOn);
  const response = await postModern(
    listenOn.mcpUrl!,
    "subscriptions/listen",
    { notifications: { taskIds: [taskId], resourceSubscriptions: [URI.jobResult(taskId)] } },
    { capabilities: withTasks },
  );
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const stream = readSse(response);
  const messages: Told["messages"] = [];
  const reading = (async () => {
    for (;;) messages.push(JSON.parse((await stream.next()).data));
  })().catch(() => {}); // the stream ends when it is closed below
  try {
    await vi.waitFor(async () => expect(await taskOn(startOn, taskId)).toMatchObject({ status: "completed" }), {
      timeout: 100_000,
      interval: 500,
    });
    const told = () => messages.filter((m) => m.method === "notifications/tasks").at(-1)?.params.status;
    await vi.waitFor(() => expect(told()).toBe("completed"), { timeout: 15_000 });
  } finally {
    await stream.close();
    await reading;
  }
  return { taskId, messages };
}

/**
 * The acknowledgement first; then the task as it was when the stream opened (working), its
 * changes and its completion with the result, and the result's updates; nothing else.
 */
function expectToldToTheEnd({ taskId, messages }: Told): void {
  const uri = URI.jobResult(taskId);
  const [ack, ...rest] = messages;
  expect(ack).toMatchObject({
    method: "notifications/subscriptions/acknowledged",
    params: { notifications: { taskIds: [taskId], resourceSubscriptions: [uri] } },
  });
  const tasks = rest.filter((m) => m.method === "notifications/tasks").map((m) => m.params);
  const updated = rest.filter((m) => m.method === "notifications/resources/updated").map((m) => m.params.uri);
  expect(tasks.length + updated.length).toBe(rest.length);
  // the stream opened while the job ran, so what came after the first task came from the worker, live
  expect(tasks[0]).toMatchObject({ taskId, status: "working" });
  expect(tasks.slice(0, -1).every((t) => t.status === "working")).toBe(true);
  expect(tasks.at(-1)).toMatchObject({
    taskId,
    status: "completed",
    result: { structuredContent: { jobId: taskId, resultCount: ROWS } },
  });
  expect(new Set(updated)).toEqual(new Set([uri]));
}

const admin = unreachable === undefined ? new Redis(redisUrl) : undefined;
const queue = admin === undefined ? undefined : new Queue(JOB_QUEUE, { connection: admin, prefix: `${prefix}queue` });
const running: Instance[] = [];
const up = async (entry: "main" | "worker", workers: string) => {
  const instance = await startInstance(entry, { ...env, WORKERS: workers });
  running.push(instance);
  return instance;
};
let a: Instance, b: Instance, worker: Instance;
let balancer: Balancer | undefined;
let client: Client | undefined;
/** The instances' ports that requests of `method` (naming `name`, if given) went to since `from`. */
const portsOf = (from: number, method: string, name?: string) =>
  balancer!
    .routed()
    .slice(from)
    .filter((r) => r.method === method && (name === undefined || r.name === name))
    .map((r) => r.port);
const both = () => new Set([a.mcpUrl!.port, b.mcpUrl!.port]);

// one set of instances and nginx for the whole file, shared by its groups of tests
if (unreachable === undefined) {
  beforeAll(async () => {
    [a, b, worker] = await Promise.all([up("main", "0"), up("main", "0"), up("worker", "2")]);
    balancer = await startBalancer([a, b]);
    client = await connectModernClient(balancer.mcpUrl);
  }, 90_000);
  afterAll(async () => {
    await client?.close().catch(() => {});
    await balancer?.close();
    await Promise.all(running.map((i) => i.stop()));
    await queue!.close();
    await deleteKeysUnder(admin!, prefix);
    await admin!.quit();
  });
}

describe.runIf(unreachable === undefined)("several instances on one Redis in the 2026-07-28 era: following", () => {
  it("follows a job the v2 client started with get_job_events long polls on A and B in turn, to its result", async () => {
    expect(client!.getProtocolEra()).toBe("modern");
    const from = balancer!.routed().length;
    const started = await client!.callTool({
      name: TOOL.startBulk,
      arguments: { ...START, csv: employeeCsv(ROWS) },
      _meta: { [PACE_META_KEY]: PACE_MS },
    });
    expect(started.isError).toBeFalsy();
    const { jobId } = StartBulkOutput.parse(started.structuredContent);
    const seen = await follow((args) => client!.callTool({ name: TOOL.getJobEvents, arguments: args }), jobId);
    const { terminal, progress } = expectJobHistory(seen);
    expect(terminal).toMatchObject({ type: "job.completed", payload: { resultCount: ROWS } });
    expect(progress.length).toBeGreaterThan(1);
    // the polls went to both servers, and the result reads the same on each
    const polls = portsOf(from, "tools/call", TOOL.getJobEvents);
    expect(polls.length).toBeGreaterThan(1);
    expect(new Set(polls)).toEqual(both());
    const head = async (instance: Instance) => {
      const reply = await requestModern(instance.mcpUrl!, "resources/read", { uri: URI.jobResult(jobId) });
      const [content] = reply.result!.contents as { text: string }[];
      return JobResultPageSchema.parse(JSON.parse(content.text));
    };
    const [onA, onB] = await Promise.all([head(a), head(b)]);
    expect(onA).toMatchObject({ jobId, total: ROWS });
    expect(onB).toEqual(onA);
  }, 120_000);

  it("follows a task of the Tasks client session with tasks/get on A and B in turn, to its completed result", async () => {
    const session = taskSession(client!, balancer!.mcpUrl);
    try {
      const execution = await session.callTool(
        TOOL.startBulk,
        { ...START, csv: employeeCsv(ROWS) },
        { metadata: { [PACE_META_KEY]: PACE_MS } },
      );
      expect(execution.kind).toBe("task");
      const taskId = execution.handle!.taskId;
      const from = balancer!.routed().length;
      const statuses: string[] = [];
      const { outcome } = await execution.settle({
        onEvent: (event) => void (event.type === "task" && statuses.push(event.task.status)),
      });
      if (outcome.status === "failed") throw outcome.error;
      expect(outcome.status).toBe("completed");
      const result = (outcome as { result: { structuredContent?: Record<string, unknown>; isError?: boolean } }).result;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ jobId: taskId, status: "completed", resultCount: ROWS });
      // it was seen working, and asked after on both servers
      expect(statuses).toContain("working");
      const polls = portsOf(from, "tasks/get", taskId);
      expect(polls.length).toBeGreaterThan(1);
      expect(new Set(polls)).toEqual(both());
    } finally {
      await session.close();
    }
  }, 120_000);
});

describe.runIf(unreachable === undefined)(
  "several instances on one Redis in the 2026-07-28 era: listening and cancelling",
  () => {
    it("tells on a listen stream a task started on the same server and run by the worker, to its end", async () => {
      expectToldToTheEnd(await listenWhileItRuns({ startOn: b, listenOn: b }));
    }, 120_000);

    // the server that serves the stream did not create the job: it follows the job from the stream
    it("tells on A's listen stream a task started on B and run by the worker, to its end", async () => {
      expectToldToTheEnd(await listenWhileItRuns({ startOn: b, listenOn: a }));
    }, 120_000);

    it("cancels with tasks/cancel on B a task started on A and running on the worker, which stops it", async () => {
      // many short slices: a worker that missed the cancel would go on appending
      const taskId = await startTask(a, 30_000, 20);
      await follow(eventsOn(b), taskId, progressed);
      expect(await queue!.getJobState(taskId)).toBe("active");
      const cancel = await requestModern(b.mcpUrl!, "tasks/cancel", { taskId }, { capabilities: withTasks });
      expect(cancel.result).toMatchObject({ resultType: "complete" });
      expect(await taskOn(a, taskId)).toMatchObject({ taskId, status: "cancelled" });
      // the worker lets go of the job, and nothing is appended after the cancel
      await vi.waitFor(async () => expect(await queue!.getJobState(taskId)).not.toBe("active"), { timeout: 30_000 });
      const before = await follow(eventsOn(a), taskId);
      await new Promise((r) => setTimeout(r, 1_000));
      const after = await follow(eventsOn(b), taskId);
      expect(after).toEqual(before);
      expect(expectJobHistory(after).terminal.type).toBe("job.canceled");
      expect(await taskOn(b, taskId)).toMatchObject({ taskId, status: "cancelled" });
      expect(worker.gone()).toBe(false);
    }, 120_000);
  },
);
