/**
 * What rides a 2026-07-28 request's own response stream: keep-alive comments while a call that
 * asked for progress waits (hosts and proxies cut silent calls), log lines only when the request
 * carries a log level, and the end of the wait, not of the job, when the client closes the stream.
 */
import { StartBulkOutput, TOOL } from "../../../shared/tools.js";
import { PACE_META_KEY } from "../../dev-pace.js";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import { postModern, requestModern } from "../../../test-kit/modern-client.js";
import { matchGifts } from "../../gifts/matcher.js";
import type { CreateExecutor } from "../../jobs/executor.js";
import { createJobService, type JobService } from "../../jobs/job-service.js";
import { createMemoryStore } from "../../jobs/stores/memory.js";
import { startTestServer, type TestServer } from "../../../test-kit/servers/test-server.js";

const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const startArgs = (rows: number) => ({
  csv: employeeCsv(rows, { seed: 3 }),
  occasion: "farewell",
  budgetPerPerson: 40,
});

/** Every JSON-RPC message of a reply (plain JSON, or SSE once it has ended). */
async function messagesOf(response: Response): Promise<{ method?: string; params?: Record<string, unknown> }[]> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return [JSON.parse(text)];
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)));
}

async function startJob(server: TestServer, rows: number, paceMs: number): Promise<string> {
  const reply = await requestModern(
    server.mcpUrl,
    "tools/call",
    { name: TOOL.startBulk, arguments: startArgs(rows) },
    { meta: { [PACE_META_KEY]: paceMs } },
  );
  return StartBulkOutput.parse(reply.result?.structuredContent).jobId;
}

describe("log lines", () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer({ devPace: true })));
  afterAll(() => server.close());

  const waitFor = async (jobId: string, meta: Record<string, unknown>) =>
    messagesOf(
      await postModern(
        server.mcpUrl,
        "tools/call",
        { name: TOOL.waitForJob, arguments: { jobId, timeoutMs: 60_000 } },
        { meta },
      ),
    );

  it("go out on wait_for_job's stream when the request carries a log level", async () => {
    const jobId = await startJob(server, 200, 5);
    const messages = await waitFor(jobId, { [LOG_LEVEL]: "info" });
    const lines = messages.filter((m) => m.method === "notifications/message").map((m) => m.params);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "info", logger: "jobs", data: expect.stringContaining(`${jobId} completed`) }),
    );
  });

  it("never go out for a request without one, nor below the level asked for", async () => {
    const quiet = await waitFor(await startJob(server, 200, 5), {});
    expect(quiet.filter((m) => m.method === "notifications/message")).toEqual([]);
    const errorsOnly = await waitFor(await startJob(server, 200, 5), { [LOG_LEVEL]: "error" });
    expect(errorsOnly.filter((m) => m.method === "notifications/message")).toEqual([]);
    expect(errorsOnly.at(-1)).toMatchObject({ result: { structuredContent: { done: true } } });
  });
});

describe("a wait on a job that has not started", () => {
  /** Takes jobs and never runs them: they stay pending for as long as the test needs. */
  const neverRuns: CreateExecutor = () => ({
    recover: async () => {},
    submit: async () => {},
    stop: () => {},
    close: async () => {},
  });
  let server: TestServer;
  let waiting = 0;

  beforeAll(async () => {
    const jobs = createJobService({ store: createMemoryStore(), match: matchGifts, executor: neverRuns });
    // counts the waits in progress, to see the server's side of a closed stream
    const counted: JobService = {
      ...jobs,
      waitFor: (...args) => {
        waiting++;
        return jobs.waitFor(...args).finally(() => waiting--);
      },
    };
    server = await startTestServer({ jobs: counted, keepAliveMs: 100 });
  });
  afterAll(() => server.close());

  const waitRequest = (jobId: string, signal?: AbortSignal, progress = true) =>
    fetch(server.mcpUrl, {
      method: "POST",
      signal,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": TOOL.waitForJob,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: TOOL.waitForJob,
          arguments: { jobId, timeoutMs: 60_000 },
          _meta: {
            ...(progress && { progressToken: "wait-1" }),
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "streams-test", version: "1.0.0" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });

  it("keeps the stream alive with comments while nothing happens", async () => {
    const jobId = await startJob(server, 10, 0);
    const controller = new AbortController();
    const response = await waitRequest(jobId, controller.signal);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    let text = "";
    while ((text.match(/^: ?keepalive/gm) ?? []).length < 2)
      text += new TextDecoder().decode((await reader.read()).value);
    expect(text).not.toMatch(/"result"/);
    controller.abort();
  });

  it("ends the wait, not the job, when the client closes the stream", async () => {
    const jobId = await startJob(server, 10, 0);
    const controller = new AbortController();
    const response = await waitRequest(jobId, controller.signal);
    await response.body!.getReader().read(); // the stream is open and the wait under way
    expect(waiting).toBe(1);
    controller.abort();
    while (waiting > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const events = await requestModern(server.mcpUrl, "tools/call", { name: TOOL.getJobEvents, arguments: { jobId } });
    expect(events.result?.structuredContent).toMatchObject({ jobId, status: "pending" });
  });

  it("ends a wait answered as plain JSON too when its client goes", async () => {
    const jobId = await startJob(server, 10, 0);
    const controller = new AbortController();
    const answer = waitRequest(jobId, controller.signal, false).catch((error: unknown) => error);
    while (waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await answer).toMatchObject({ name: "AbortError" });
    while (waiting > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
