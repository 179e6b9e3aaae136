/**
 * Waiting on jobs and stopping them, over real HTTP with the official MCP client: a get_job_events
 * long poll comes back as soon as the job moves, long before its waitMs; a running job is canceled
 * once, its history ends there, and asking for its result says why there is none.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  CancelJobOutput,
  GetJobEventsOutput,
  TOOL,
  WaitForJobOutput,
  type GetJobEventsResult,
} from "../../shared/tools.js";
import { foldJobEvents, toJobView } from "../../shared/job-reducer.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { expectJobHistory } from "../../test-kit/job-history.js";
import {
  callTool,
  connectClient,
  readJobHistory,
  startJob,
  startTestServer,
  toolError,
  toolText,
  untilJobProgress,
  type TestServer,
} from "../../test-kit/servers/test-server.js";

let server: TestServer;
let client: Client;
let bigCsv: string;

beforeAll(async () => {
  // one job at a time, so a second job waits as pending for as long as the first runs
  server = await startTestServer({
    jobs: createJobService({ store: createMemoryStore(), match: matchGifts, limits: { maxConcurrentJobs: 1 } }),
  });
  client = await connectClient(server.mcpUrl);
  bigCsv = employeeCsv(100_000);
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function getEvents(args: Record<string, unknown>): Promise<GetJobEventsResult> {
  const result = await callTool(client, TOOL.getJobEvents, args);
  if (result.isError) throw new Error(toolText(result));
  return GetJobEventsOutput.parse(result.structuredContent);
}

/**
 * Races a long poll against a 15 s sentinel, well inside its 20 s waitMs: winning shows the poll
 * was answered by an event, not by its timeout.
 */
async function beforeSentinel<T>(poll: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const sentinel = new Promise<"sentinel">((resolve) => (timer = setTimeout(() => resolve("sentinel"), 15_000)));
  try {
    const winner = await Promise.race([poll, sentinel]);
    if (winner === "sentinel") throw new Error("the long poll was still waiting after 15 s");
    return winner;
  } finally {
    clearTimeout(timer);
  }
}

async function cancel(jobId: string) {
  const result = await callTool(client, TOOL.cancelJob, { jobId });
  return { result, value: CancelJobOutput.parse(result.structuredContent) };
}

/** A page agrees with itself: `done` only once the job ended and the page holds its last event. */
function expectConsistent(page: GetJobEventsResult) {
  const terminal = ["completed", "failed", "canceled"].includes(page.status);
  if (page.done) expect(terminal).toBe(true);
  if (page.events.some((e) => ["job.completed", "job.failed", "job.canceled"].includes(e.type))) {
    expect(page.done).toBe(true);
  }
  if (page.events.length > 0) expect(page.nextSeq).toBe(page.events.at(-1)?.seq);
}

describe("long polls over MCP", () => {
  it("answer a poll on a waiting job as soon as the job starts", async () => {
    const blocker = await startJob(client, { csv: bigCsv, occasion: "holiday", budgetPerPerson: 40 });
    await untilJobProgress(client, blocker.jobId);
    const waiting = await startJob(client, { csv: employeeCsv(20), occasion: "holiday", budgetPerPerson: 40 });
    expect(waiting.status).toBe("pending");
    expect(await getEvents({ jobId: waiting.jobId, afterSeq: 1 })).toMatchObject({
      events: [],
      nextSeq: 1,
      done: false,
      status: "pending",
    });

    const began = performance.now();
    const poll = getEvents({ jobId: waiting.jobId, afterSeq: 1, waitMs: 20_000 });
    await sleep(100); // time for the poll to be waiting; it is correct either way
    expect((await cancel(blocker.jobId)).value.changed).toBe(true);
    const page = await beforeSentinel(poll);
    console.info(
      `a 20 s long poll on a waiting job came back ${Math.round(performance.now() - began)} ms after it was sent`,
    );

    expect(page.events[0]).toMatchObject({ type: "job.started", seq: 2, jobId: waiting.jobId });
    expect(page.events.map((e) => e.seq)).toEqual(page.events.map((_, i) => i + 2));
    expectConsistent(page);
    await callTool(client, TOOL.waitForJob, { jobId: waiting.jobId });
  });

  it("answer a poll after the latest event of a running job with the next events", async () => {
    const { jobId } = await startJob(client, { csv: bigCsv, occasion: "holiday", budgetPerPerson: 40 });
    const afterSeq = await untilJobProgress(client, jobId);
    const page = await beforeSentinel(getEvents({ jobId, afterSeq, waitMs: 20_000 }));
    expect(page.events.length).toBeGreaterThan(0);
    expect(page.events[0].seq).toBe(afterSeq + 1);
    expectConsistent(page);
    await cancel(jobId);
  });
});

describe("cancel over MCP", () => {
  it("stops a running job once; its history ends with job.canceled and it has no result", async () => {
    const { jobId, resultUri } = await startJob(client, { csv: bigCsv, occasion: "farewell", budgetPerPerson: 50 });
    await untilJobProgress(client, jobId);

    const first = await cancel(jobId);
    expect(first.value).toEqual({ jobId, status: "canceled", changed: true });
    expect(toolText(first.result)).toBe(`Canceled job ${jobId}.`);
    const again = await cancel(jobId);
    expect(again.value).toEqual({ jobId, status: "canceled", changed: false });
    expect(toolText(again.result)).toBe(`Job ${jobId} is already canceled; nothing was canceled.`);

    const { events, raw, last } = await readJobHistory(client, jobId);
    const { terminal } = expectJobHistory(raw, last);
    expect(terminal).toMatchObject({ type: "job.canceled", payload: { reason: "Canceled on request." } });
    expect(events.some((e) => e.type === "job.progress" && e.payload.percentage > 0)).toBe(true);
    const view = toJobView(foldJobEvents(jobId, events));
    expect(view).toMatchObject({
      status: "canceled",
      cancelReason: "Canceled on request.",
      resultResourceId: null,
    });
    // nothing comes after the end: a poll past it returns at once, empty and done
    expect(await beforeSentinel(getEvents({ jobId, afterSeq: last.nextSeq, waitMs: 20_000 }))).toMatchObject({
      events: [],
      done: true,
    });

    const result = await callTool(client, TOOL.getJobResult, { jobId });
    expect(toolError(result)).toEqual({
      code: "job_not_finished",
      message: `Job ${jobId} was canceled, so it has no result.`,
      hint: "Start a new analysis with start_bulk_gift_analysis.",
    });
    expect(toolText(result)).toBe(
      `Job ${jobId} was canceled, so it has no result. Start a new analysis with start_bulk_gift_analysis.`,
    );
    const unreadable = await client.readResource({ uri: resultUri }).catch((e: unknown) => e);
    expect(unreadable).toBeInstanceOf(McpError);
    expect(unreadable).toMatchObject({ code: -32002, data: { uri: resultUri, reason: { code: "job_not_finished" } } });
    const waited = WaitForJobOutput.parse((await callTool(client, TOOL.waitForJob, { jobId })).structuredContent);
    expect(waited).toMatchObject({ status: "canceled", done: true, view });
  });
});
