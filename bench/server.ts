/**
 * Server throughput: stateless `tools/call` requests per second and p50/p99 latency over loopback
 * HTTP, for `suggest_gifts` and for `get_job_events` (no wait, on a finished job), with autocannon
 * in this process and each server in a child process: ours (server/app.ts) against the SDK's own
 * stateless Express pattern (a new McpServer per request) and against a bare Hono route (ceiling).
 */
import { GetJobEventsOutput, StartBulkOutput, SuggestGiftsOutput, TOOL } from "../shared/tools.js";
import { startTarget, type Target } from "./children.js";
import { load, type Load } from "./load.js";
import { MCP_HEADERS, callTool, toolCallBody } from "./mcp-http.js";
import { BENCH_JOB, SUGGEST_ARGS } from "./requests.js";
import { row, type BenchOptions, type BenchRow } from "./table.js";

type Call = { tool: string; args: (jobId: string) => Record<string, unknown>; check: (body: string) => boolean };

const CALLS: Call[] = [
  { tool: TOOL.suggestGifts, args: () => SUGGEST_ARGS, check: (b) => b.includes('"gifts":[{"id":') },
  { tool: TOOL.getJobEvents, args: (jobId) => ({ jobId }), check: (b) => b.includes('"type":"job.completed"') },
];
const NAMES = { ours: "ours", baseline: "sdk-baseline", ceiling: "ceiling" } as const;

/** Starts the small job on a target over MCP and waits until it has completed; its id. */
async function finishedJob(t: Target): Promise<string> {
  if (t.info.jobId) return t.info.jobId;
  const { jobId } = await callTool(t.url, TOOL.startBulk, BENCH_JOB, StartBulkOutput);
  let afterSeq = 0;
  for (;;) {
    const page = await callTool(t.url, TOOL.getJobEvents, { jobId, afterSeq, waitMs: 5000 }, GetJobEventsOutput);
    if (page.status === "failed" || page.status === "canceled") throw new Error(`${t.name}: the job ${page.status}`);
    if (page.done) return jobId;
    afterSeq = page.nextSeq;
  }
}

/** Real answers, parsed with the shared schemas: gifts within budget, a completed job's events. */
async function checkAnswers(t: Target, jobId: string): Promise<void> {
  const gifts = await callTool(t.url, TOOL.suggestGifts, SUGGEST_ARGS, SuggestGiftsOutput);
  if (gifts.gifts.length !== SUGGEST_ARGS.count || gifts.gifts.some((g) => g.price > SUGGEST_ARGS.budget))
    throw new Error(`${t.name}: wrong gifts`);
  const page = await callTool(t.url, TOOL.getJobEvents, { jobId }, GetJobEventsOutput);
  const last = page.events[page.events.length - 1];
  if (page.status !== "completed" || page.events.length < 4 || last?.type !== "job.completed")
    throw new Error(`${t.name}: wrong events`);
}

/** Rows: req/s, p99, p50, req/s against the ceiling and bad answers, for each of the two tools. */
export async function benchServer({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const seconds = smoke ? 0.3 : quick ? 2 : 6;
  const warmup = smoke ? 0.1 : quick ? 0.5 : 1.5;
  const connections = smoke ? 2 : 20;
  const targets = await Promise.all(Object.values(NAMES).map((name) => startTarget(name)));
  const [ours, baseline, ceiling] = targets;
  const rows: BenchRow[] = [];
  try {
    const jobs = await Promise.all(targets.map(finishedJob));
    await Promise.all(targets.map((t, i) => checkAnswers(t, jobs[i])));
    for (const call of CALLS) {
      const measured = new Map<Target, Load>();
      for (const [i, t] of targets.entries()) {
        const body = toolCallBody(call.tool, call.args(jobs[i]));
        const run = { url: t.url, headers: { ...MCP_HEADERS }, body, check: call.check, connections };
        await load({ ...run, seconds: warmup });
        const l = await load({ ...run, seconds });
        if (l.ok === 0 || l.bad > l.ok / 100)
          throw new Error(`${t.name} ${call.tool}: ${l.bad} bad answers of ${l.ok + l.bad}`);
        measured.set(t, l);
      }
      const [o, b, c] = [ours, baseline, ceiling].map((t) => measured.get(t)!);
      const section = "server";
      const m = call.tool;
      rows.push(
        row({
          section,
          metric: `${m} req/s`,
          value: o.rps,
          unit: "req/s",
          baseline: b.rps,
          baselineName: "SDK stateless Express",
          target: "≥ 3× (stretch 5×)",
          met: o.rps >= 3 * b.rps,
        }),
        row({
          section,
          metric: `${m} p99 latency`,
          value: o.p99,
          unit: "ms",
          baseline: b.p99,
          baselineName: "SDK stateless Express",
          target: "≤ 1/3 of baseline",
          met: o.p99 * 3 <= b.p99,
        }),
        row({
          section,
          metric: `${m} p50 latency`,
          value: o.p50,
          unit: "ms",
          baseline: b.p50,
          baselineName: "SDK stateless Express",
          target: "–",
          met: null,
        }),
        row({
          section,
          metric: `${m} req/s vs ceiling`,
          value: o.rps,
          unit: "req/s",
          baseline: c.rps,
          baselineName: "bare Hono, precomputed",
          target: "for reference",
          met: null,
        }),
        row({
          section,
          metric: `${m} bad answers`,
          value: o.bad,
          unit: "",
          baseline: b.bad,
          baselineName: "SDK stateless Express",
          target: "0",
          met: o.bad === 0,
          ratio: null,
        }),
      );
    }
    await Promise.all(targets.map((t, i) => checkAnswers(t, jobs[i])));
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
  return rows;
}
