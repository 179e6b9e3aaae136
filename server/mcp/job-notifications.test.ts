/**
 * Job notifications over real HTTP with the official MCP client: the session that started a job
 * hears each of its events once, in order, plus resources/updated for a subscribed result and log
 * lines once it set a level; another session hears none of it; and a GET stream that drops and
 * comes back with Last-Event-ID receives what it missed.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CallToolResultSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import * as z4 from "zod/v4";
import * as z from "zod/mini";
import { JobEventSchema, notificationMethodFor, type JobEvent } from "../../shared/job-events.js";
import { CancelJobOutput, StartBulkOutput, TOOL } from "../../shared/tools.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { JOB_EVENT_TYPES } from "../../test-kit/job-events.js";
import {
  callTool,
  connectStreamingClient,
  postRaw,
  readJobHistory,
  startJob,
  startTestServer,
  type TestServer,
} from "../../test-kit/servers/test-server.js";

let server: TestServer;
let bigCsv: string;

beforeAll(async () => {
  // one job at a time: a job started behind a running one stays pending until that one ends
  server = await startTestServer({
    jobs: createJobService({ store: createMemoryStore(), match: matchGifts, limits: { maxConcurrentJobs: 1 } }),
  });
  bigCsv = employeeCsv(100_000);
});
afterAll(async () => {
  await server.close();
});

type Heard = { method: string; params: Record<string, unknown> };

/** What a client heard, and a way to wait until it has heard something. */
function createEar() {
  const heard: Heard[] = [];
  const waiting: { match: (h: Heard) => boolean; resolve: () => void }[] = [];
  return {
    heard,
    hear(h: Heard) {
      heard.push(h);
      for (const w of waiting.filter((w) => w.match(h))) w.resolve();
    },
    until: (match: (h: Heard) => boolean) =>
      heard.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ match, resolve })),
  };
}

/** Listens for every job notification method with its own handler; params are checked later. */
function hearJobs(client: Client) {
  const ear = createEar();
  for (const type of JOB_EVENT_TYPES) {
    const method = notificationMethodFor(type);
    const schema = z4.object({ method: z4.literal(method), params: z4.record(z4.string(), z4.unknown()) });
    client.setNotificationHandler(schema, (n) => ear.hear(n));
  }
  return ear;
}

/** The job events among what was heard, each parsed with the shared schema (which throws on a bad one). */
function jobEvents(heard: Heard[], jobId: string): JobEvent[] {
  return heard
    .filter((h) => h.method.startsWith("notifications/job/"))
    .map((h) => {
      const event = JobEventSchema.parse(h.params);
      expect(h.method).toBe(notificationMethodFor(event.type));
      return event;
    })
    .filter((e) => e.jobId === jobId);
}

const endOf = (jobId: string) => (h: Heard) => h.method === "notifications/job/completed" && h.params.jobId === jobId;

const JsonRpcResult = z.object({ result: z.unknown() });

/** A tools/call without a session: no session hears about what it does. */
async function callStateless(name: string, args: Record<string, unknown>) {
  const response = await postRaw(
    server.mcpUrl,
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  );
  return CallToolResultSchema.parse(JsonRpcResult.parse(await response.json()).result).structuredContent;
}
const startBlocker = async () =>
  StartBulkOutput.parse(await callStateless(TOOL.startBulk, { csv: bigCsv, occasion: "holiday", budgetPerPerson: 40 }))
    .jobId;
const cancelStateless = async (jobId: string) => CancelJobOutput.parse(await callStateless(TOOL.cancelJob, { jobId }));

describe("job notifications", () => {
  it("reach the session that started the job, with resources/updated and log lines it asked for, and no other session", async () => {
    const { client: a } = await connectStreamingClient(server.mcpUrl);
    const { client: b } = await connectStreamingClient(server.mcpUrl);
    try {
      const heardA = hearJobs(a);
      const updates: string[] = [];
      const logs: { level: string; logger?: string; data: unknown }[] = [];
      a.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        updates.push(n.params.uri);
        heardA.hear(n);
      });
      a.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        logs.push(n.params);
        heardA.hear(n);
      });
      const heardB = createEar();
      b.fallbackNotificationHandler = async (n) => heardB.hear({ method: n.method, params: n.params ?? {} });
      await a.setLoggingLevel("info");

      // the job waits behind another, so the subscription is in place before it can end
      const blocker = await startBlocker();
      const job = await startJob(a, { csv: employeeCsv(2_000), occasion: "welcome", budgetPerPerson: 30 });
      expect(job.status).toBe("pending");
      await a.subscribeResource({ uri: job.resultUri });
      expect(await cancelStateless(blocker)).toMatchObject({ changed: true });
      await heardA.until(endOf(job.jobId));
      await heardA.until((h) => h.method === "notifications/resources/updated");
      await heardA.until((h) => h.method === "notifications/message" && String(h.params.data).includes("completed"));

      const events = jobEvents(heardA.heard, job.jobId);
      expect(new Set(events.map((e) => e.type))).toEqual(
        new Set(["job.created", "job.started", "job.progress", "job.completed"]),
      );
      // each event exactly once and in order: the notifications are the history
      expect(events).toEqual((await readJobHistory(a, job.jobId)).events);
      expect(jobEvents(heardA.heard, blocker)).toEqual([]);
      expect(updates).toEqual([job.resultUri]);
      expect(logs).toEqual([
        { level: "info", logger: "jobs", data: `Gift analysis ${job.jobId} started.` },
        {
          level: "info",
          logger: "jobs",
          data: expect.stringMatching(new RegExp(`^Gift analysis ${job.jobId} completed: Found welcome gift ideas`)),
        },
      ]);

      // what b hears of its own job shows its stream works; by then a's would have come first
      const own = await startJob(b, { csv: employeeCsv(10), occasion: "welcome", budgetPerPerson: 30 });
      await heardB.until(endOf(own.jobId));
      expect(jobEvents(heardB.heard, own.jobId).at(-1)?.type).toBe("job.completed");
      expect(heardB.heard.filter((h) => JSON.stringify(h).includes(job.jobId))).toEqual([]);
      expect(
        heardB.heard.filter(
          (h) => h.method === "notifications/message" || h.method === "notifications/resources/updated",
        ),
      ).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("missed while the GET stream was down are replayed when the client reconnects with Last-Event-ID", async () => {
    const { client, stream } = await connectStreamingClient(server.mcpUrl);
    try {
      const heard = hearJobs(client);
      const blocker = await startBlocker();
      const job = await startJob(client, { csv: employeeCsv(3_000), occasion: "holiday", budgetPerPerson: 40 });
      await heard.until((h) => h.method === "notifications/job/created" && h.params.jobId === job.jobId);

      stream.cut();
      await cancelStateless(blocker);
      const waited = await callTool(client, TOOL.waitForJob, { jobId: job.jobId });
      expect(waited.structuredContent).toMatchObject({ status: "completed" });
      // the job ran from start to end while the stream was down: only its creation got through
      expect(jobEvents(heard.heard, job.jobId).map((e) => e.type)).toEqual(["job.created"]);

      stream.resume();
      await heard.until(endOf(job.jobId));
      const history = (await readJobHistory(client, job.jobId)).events;
      expect(history.length).toBeGreaterThan(4);
      expect(jobEvents(heard.heard, job.jobId)).toEqual(history);
      expect(stream.lastEventIds[0]).toBeNull();
      expect(stream.lastEventIds.length).toBeGreaterThanOrEqual(2);
      expect(stream.lastEventIds.slice(1).every((id) => typeof id === "string" && id.length > 0)).toBe(true);

      // the resumed stream is the live one from now on
      const next = await startJob(client, { csv: employeeCsv(10), occasion: "holiday", budgetPerPerson: 40 });
      await heard.until(endOf(next.jobId));
      expect(jobEvents(heard.heard, next.jobId)).toEqual((await readJobHistory(client, next.jobId)).events);
    } finally {
      stream.resume();
      await client.close();
    }
  });
});
