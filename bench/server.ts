/**
 * Server throughput: stateless `tools/call` requests per second and p50/p99 latency over loopback
 * HTTP, for `suggest_gifts` and for `get_job_events` (no wait, on a finished job), with autocannon
 * in this process and each server in a child process: ours (server/app.ts) against the SDK's own
 * stateless Express pattern (a new McpServer per request) and against a bare Hono route (ceiling).
 * And the cost of observability: our server as configured in production with logs at info, metrics
 * and traces (sent to a local sink) on, against the same server with all of them off. Every
 * configuration runs in several processes, measured in rotating rounds (rounds.ts).
 */
import { GetJobEventsOutput, StartBulkOutput, SuggestGiftsOutput, TOOL } from "../shared/tools.js";
import { startTarget, type Target } from "./children.js";
import { load } from "./load.js";
import { MCP_HEADERS, callTool, toolCallBody } from "./mcp-http.js";
import { BENCH_JOB, SUGGEST_ARGS } from "./requests.js";
import { startOtlpSink } from "./otlp-sink.js";
import { measureInRounds, type RoundsResult } from "./rounds.js";
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

/**
 * How long each load runs: every configuration is measured in `processes` processes, each warmed
 * up, then for `rounds` turns of `round` seconds (rounds.ts).
 */
type Pace = { warmup: number; connections: number; processes: number; rounds: number; round: number };

const paceOf = ({ quick, smoke }: BenchOptions): Pace => ({
  warmup: smoke ? 0.1 : quick ? 0.5 : 1.5,
  connections: smoke ? 2 : 20,
  processes: smoke ? 1 : quick ? 2 : 4,
  rounds: smoke ? 1 : 2,
  round: smoke ? 0.3 : quick ? 1 : 1.5,
});

/** The load of `call` on `t`, about its job `jobId`, all but its length. */
const callLoad = (t: Target, jobId: string, call: Call, pace: Pace) => ({
  url: t.url,
  headers: { ...MCP_HEADERS },
  body: toolCallBody(call.tool, call.args(jobId)),
  check: call.check,
  connections: pace.connections,
});

/**
 * Runs `use` on targets that each have a finished job and answer right, before and after; stops
 * them all at the end.
 */
async function withTargets<T>(
  started: Promise<Target>[],
  use: (targets: Target[], jobs: string[]) => Promise<T>,
): Promise<T> {
  const targets = await Promise.all(started);
  try {
    const jobs = await Promise.all(targets.map(finishedJob));
    await Promise.all(targets.map((t, i) => checkAnswers(t, jobs[i])));
    const result = await use(targets, jobs);
    await Promise.all(targets.map((t, i) => checkAnswers(t, jobs[i])));
    return result;
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
}

/** Ours against the SDK's pattern and the ceiling, for one tool. */
function comparisonRows(m: string, [o, b, c]: RoundsResult[]): BenchRow[] {
  const section = "server";
  const sdk = { section, baselineName: "SDK stateless Express" };
  return [
    row({
      ...sdk,
      metric: `${m} req/s`,
      value: o.rps,
      unit: "req/s",
      baseline: b.rps,
      target: "≥ 3× (stretch 5×)",
      met: o.rps >= 3 * b.rps,
    }),
    row({
      ...sdk,
      metric: `${m} p99 latency`,
      value: o.p99,
      unit: "ms",
      baseline: b.p99,
      target: "≤ 1/3 of baseline",
      met: o.p99 * 3 <= b.p99,
    }),
    row({ ...sdk, metric: `${m} p50 latency`, value: o.p50, unit: "ms", baseline: b.p50, target: "–", met: null }),
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
      ...sdk,
      metric: `${m} bad answers`,
      value: o.bad,
      unit: "",
      baseline: b.bad,
      target: "0",
      met: o.bad === 0,
      ratio: null,
    }),
  ];
}

/** The three configurations the cost of observability is measured in, all off first. */
const LOGS_METRICS = { STORE: "memory", LOG_LEVEL: "info", METRICS_PORT: "0" };
/** The head sampler docs/operations.md suggests for busy servers: a caller's decision kept, 1 in 10 new traces. */
const ONE_IN_TEN = { OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" };
const OBSERVED = [
  { what: "", env: { STORE: "memory", LOG_LEVEL: "warn" }, traces: false },
  { what: "logs + metrics", env: LOGS_METRICS, traces: false },
  { what: "logs + metrics + traces (every request)", env: LOGS_METRICS, traces: true },
  { what: "logs + metrics + traces (1 in 10)", env: { ...LOGS_METRICS, ...ONE_IN_TEN }, traces: true },
];
const OFF = "logs at warn, no metrics, no traces";

/** A tool's rows for one configuration against all off: req/s (the target), and server CPU per request. */
function costRows(tool: string, what: string, on: RoundsResult, off: RoundsResult): BenchRow[] {
  const section = "server";
  const rows = [
    row({
      section,
      metric: `${tool} req/s, ${what} on`,
      value: on.rps,
      unit: "req/s",
      baseline: off.rps,
      baselineName: OFF,
      target: "within 10 %",
      met: on.rps >= 0.9 * off.rps,
    }),
  ];
  if (on.cpuMicrosPerRequest !== null && off.cpuMicrosPerRequest !== null)
    rows.push(
      row({
        section,
        metric: `${tool} server CPU per request, ${what} on`,
        value: on.cpuMicrosPerRequest,
        unit: "µs",
        baseline: off.cpuMicrosPerRequest,
        baselineName: OFF,
        target: "for reference",
        met: null,
      }),
    );
  return rows;
}

/**
 * Each tool on `started` (`configurations` groups of `pace.processes` processes, in order), every
 * process warmed up, then measured in rounds (rounds.ts); `rows` makes a tool's rows of the groups' results.
 */
async function inRounds(
  started: Promise<Target>[],
  configurations: number,
  pace: Pace,
  rows: (tool: string, results: RoundsResult[]) => BenchRow[],
): Promise<BenchRow[]> {
  return withTargets(started, async (targets, jobs) => {
    const groups = Array.from({ length: configurations }, (_, g) =>
      targets.slice(g * pace.processes, (g + 1) * pace.processes),
    );
    const measured: BenchRow[] = [];
    for (const call of CALLS) {
      const run = (t: Target) => callLoad(t, jobs[targets.indexOf(t)], call, pace);
      for (const t of targets) await load({ ...run(t), seconds: pace.warmup });
      measured.push(
        ...rows(call.tool, await measureInRounds(groups, { rounds: pace.rounds, seconds: pace.round, run })),
      );
    }
    return measured;
  });
}

/**
 * The cost of observability, each tool in rounds (rounds.ts): our server as production runs it
 * with logs at info and metrics (METRICS_PORT) on, then with traces (to a local sink) on as well,
 * against the same server with logs at warn and neither metrics nor traces.
 */
async function observabilityRows(pace: Pace): Promise<BenchRow[]> {
  const sink = await startOtlpSink();
  try {
    const started = OBSERVED.flatMap(({ env, traces }) =>
      Array.from({ length: pace.processes }, () =>
        startTarget("observed", traces ? { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } : env),
      ),
    );
    return await inRounds(started, OBSERVED.length, pace, (tool, [off, ...on]) =>
      on.flatMap((result, i) => costRows(tool, OBSERVED[i + 1].what, result, off)),
    );
  } finally {
    await sink.close();
  }
}

/**
 * Rows: req/s, p99, p50, req/s against the ceiling and bad answers, for each of the two tools; then
 * each tool's req/s with observability on against off.
 */
export async function benchServer(options: BenchOptions): Promise<BenchRow[]> {
  const pace = paceOf(options);
  const names = Object.values(NAMES);
  const rows = await inRounds(
    names.flatMap((name) => Array.from({ length: pace.processes }, () => startTarget(name))),
    names.length,
    pace,
    comparisonRows,
  );
  return [...rows, ...(await observabilityRows(pace))];
}
