/**
 * /metrics as a scraper sees it, on a real server process: scraped, then a job run to its end, a
 * start refused by the hourly quota and the job's events read, then scraped again; each counter
 * moved by exactly what happened, each histogram's count by its observations. And the same
 * process's log lines: the job's, found by its id, with its owner's hash and never its data.
 */
import { GetJobEventsOutput, TOOL } from "../../shared/tools.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { callTool, connectClient, startJob, toolError } from "../../test-kit/servers/test-server.js";
import { sampleSum, startLogged, type LoggedProcess } from "../../test-kit/observability/logged-process.js";

const START = { occasion: "holiday", budgetPerPerson: 50 };
let server: LoggedProcess;

beforeAll(async () => {
  server = await startLogged("main", { STORE: "memory", METRICS_PORT: "0", QUOTA_JOBS_PER_HOUR: "1" });
}, 150_000);
afterAll(() => server.kill());

const scrape = async () => {
  const response = await fetch(server.metricsUrl!);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
  return response.text();
};

it("counts a job, its tool calls, a quota refusal, the events delivered and the requests, exactly", async () => {
  const client = await connectClient(server.mcpUrl!);
  try {
    const before = await scrape();
    const { jobId } = await startJob(client, { ...START, csv: employeeCsv(300) });
    await callTool(client, TOOL.waitForJob, { jobId, timeoutMs: 60_000 });
    const refused = await callTool(client, TOOL.startBulk, { ...START, csv: employeeCsv(10) });
    const code = toolError(refused).code;
    const page = GetJobEventsOutput.parse(
      (await callTool(client, TOOL.getJobEvents, { jobId, afterSeq: 0 })).structuredContent,
    );
    expect(page.done).toBe(true);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);

    expect(delta("giftgenius_jobs_total", { outcome: "completed" })).toBe(1);
    expect(delta("giftgenius_jobs_total")).toBe(1);
    expect(delta("giftgenius_job_duration_seconds_count", { outcome: "completed" })).toBe(1);
    expect(delta("giftgenius_stage_rows_per_second_count")).toBeGreaterThan(0);
    expect(delta("giftgenius_tool_calls_total", { tool: TOOL.startBulk, outcome: "ok" })).toBe(1);
    expect(delta("giftgenius_tool_calls_total", { tool: TOOL.startBulk, outcome: code })).toBe(1);
    expect(delta("giftgenius_tool_calls_total", { tool: TOOL.waitForJob, outcome: "ok" })).toBe(1);
    expect(delta("giftgenius_tool_calls_total", { tool: TOOL.getJobEvents, outcome: "ok" })).toBe(1);
    expect(delta("giftgenius_tool_calls_total")).toBe(4);
    expect(delta("giftgenius_quota_refusals_total", { code })).toBe(1);
    // one delivery observed per event handed out
    expect(delta("giftgenius_event_delivery_lag_seconds_count")).toBe(page.events.length);
    // four tool calls, each one POST answered 200; every request timed once
    expect(delta("giftgenius_http_requests_total", { mcp_method: "tools/call", status: "200" })).toBe(4);
    expect(delta("giftgenius_http_request_duration_seconds_count", { mcp_method: "tools/call" })).toBe(4);
    expect(delta("giftgenius_http_request_duration_seconds_count")).toBe(delta("giftgenius_http_requests_total"));
    // read at the scrape: the store answered, nothing waits
    expect(sampleSum(after, "giftgenius_store_up")).toBe(1);
    expect(delta("giftgenius_store_roundtrip_seconds_count")).toBe(1);
    expect(sampleSum(after, "giftgenius_queue_jobs", { state: "waiting" })).toBe(0);
    expect(sampleSum(after, "giftgenius_queue_jobs", { state: "active" })).toBe(0);
    expect(sampleSum(after, "giftgenius_open_streams", { kind: "long_poll" })).toBe(0);

    // the job's lines, by its id: created, started, ended, each with the owner's hash only
    const lines = server.records().filter((r) => r.jobId === jobId);
    expect(lines.filter((r) => r.role === "server" && r.level === "info").map((r) => r.msg)).toEqual([
      "job created",
      "job started",
      "job ended",
    ]);
    expect(new Set(lines.filter((r) => r.msg !== "request").map((r) => r.subject))).toEqual(
      new Set([expect.stringMatching(/^[\w-]{12}$/)]),
    );
    expect(lines.filter((r) => r.msg === "request").map((r) => r.tool)).toEqual(
      expect.arrayContaining([TOOL.waitForJob, TOOL.getJobEvents]),
    );
    // nobody's identity: not the subject, not a name from the CSV, on any line (requests at debug included)
    expect(JSON.stringify(lines)).not.toContain("anonymous");
    for (const name of ["Lovelace", "Núñez", "李小龍", "O'Brien"])
      expect(JSON.stringify(server.records())).not.toContain(name);
  } finally {
    await client.close();
  }
}, 150_000);
