/**
 * Many watchers on one instance: 1,000 small jobs, each followed by its own long-polling client
 * (`get_job_events`, waitMs 20 s) over keep-alive sockets, against our server in a child process.
 * Figures: update latency p50/p95 and errors. The clients' sockets are opened first. So that
 * every job is watched at once, large "blocker" jobs then fill the server's job slots; the small
 * jobs queue behind them while their clients attach, and once every client has a long poll open
 * the blockers are canceled and the small jobs run, 16 at a time.
 *
 * Latency method: each event's `timestamp` is the server's wall clock (Date.now) when the job log
 * appended and published it; the client takes Date.now() when the answer holding it arrives. Both
 * processes read the same system clock, so the difference is the emit → receive delay (±1 ms).
 * Events already appended when a client's first poll went out (job.created at least) are its
 * catch-up, not updates.
 */
import type { Agent } from "node:http";
import type { ZodMiniType } from "zod/mini";
import { CancelJobOutput, GetJobEventsOutput, StartBulkOutput, TOOL } from "../shared/tools.js";
import { startTarget } from "./children.js";
import { callTool, createAgent, openSockets } from "./mcp-http.js";
import { percentile, row, type BenchOptions, type BenchRow } from "./table.js";
import { employeeCsv } from "../test-kit/employee-csv.js";

/** Jobs the server runs at once during this benchmark (the default is 4). */
const MAX_CONCURRENT_JOBS = 16;
const ROWS_PER_JOB = 200;
/** Enough rows that the blockers outlast the clients' start-up (about a second for a thousand). */
const BLOCKER_ROWS = 15_000;
/**
 * At smoke size too, the blockers' bodies (about 300 KB each) are past the size parsed in a worker
 * thread: sixteen of them at once are the burst the parser must queue, not refuse.
 */
const SMOKE_BLOCKER_ROWS = 6_000;

type Tally = {
  latencies: number[];
  errors: string[];
  open: number;
  peakOpen: number;
  caughtUp: number;
  allOpen: () => void;
};

/** Follows one job from `afterSeq` 0 to its end with long polls. */
async function watch(url: URL, agent: Agent, jobId: string, clients: number, tally: Tally): Promise<void> {
  const since = Date.now();
  let afterSeq = 0;
  for (;;) {
    tally.peakOpen = Math.max(tally.peakOpen, ++tally.open);
    if (tally.open === clients) tally.allOpen();
    const page = await callTool(
      url,
      TOOL.getJobEvents,
      { jobId, afterSeq, waitMs: 20_000 },
      GetJobEventsOutput,
      agent,
    ).finally(() => tally.open--);
    const now = Date.now();
    for (const event of page.events) {
      if (event.seq !== ++afterSeq) throw new Error(`job ${jobId}: event ${event.seq} where ${afterSeq} was due`);
      const at = Date.parse(event.timestamp);
      // job.created is published before the client can know the job id
      if (at < since || event.type === "job.created") tally.caughtUp++;
      else tally.latencies.push(now - at);
    }
    if (page.done) {
      if (page.status !== "completed") throw new Error(`job ${jobId} ended ${page.status}`);
      return;
    }
  }
}

/** Rows: update p95 and p50, errors, and the peak of long polls open at once. */
export async function benchScale({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const clients = smoke ? 10 : quick ? 200 : 1000;
  const target = await startTarget("ours", { BENCH_MAX_JOBS: String(MAX_CONCURRENT_JOBS) });
  const agent = createAgent(clients + MAX_CONCURRENT_JOBS);
  let allOpen!: () => void;
  const attached = new Promise<void>((resolve) => (allOpen = resolve));
  const tally: Tally = { latencies: [], errors: [], open: 0, peakOpen: 0, caughtUp: 0, allOpen };
  const note = (error: unknown) => void tally.errors.push(error instanceof Error ? error.message : String(error));
  const call = <T>(name: string, args: Record<string, unknown>, output: ZodMiniType<T>) =>
    callTool(target.url, name, args, output, agent);
  try {
    await openSockets(target.url, agent, clients + MAX_CONCURRENT_JOBS);
    const blocker = {
      csv: employeeCsv(smoke ? SMOKE_BLOCKER_ROWS : BLOCKER_ROWS, { seed: 5 }),
      occasion: "holiday",
      budgetPerPerson: 50,
    };
    const blockers = await Promise.all(
      Array.from({ length: MAX_CONCURRENT_JOBS }, () => call(TOOL.startBulk, blocker, StartBulkOutput)),
    );
    const released = attached.then(() =>
      Promise.all(blockers.map((b) => call(TOOL.cancelJob, { jobId: b.jobId }, CancelJobOutput))),
    );
    const small = { csv: employeeCsv(ROWS_PER_JOB, { seed: 9 }), occasion: "team offsite", budgetPerPerson: 30 };
    const watched = Promise.all(
      Array.from({ length: clients }, async () => {
        const { jobId } = await call(TOOL.startBulk, small, StartBulkOutput);
        await watch(target.url, agent, jobId, clients, tally);
      }).map((client) => client.catch(note)),
    );
    const canceled = await Promise.race([released, watched.then(() => [])]);
    await watched;
    if (canceled.some((c) => !c.changed))
      note(new Error("a blocker job ended before every client was watching; make the blockers larger"));
  } finally {
    agent.destroy();
    await target.stop();
  }
  if (tally.latencies.length < clients)
    throw new Error(`only ${tally.latencies.length} updates arrived for ${clients} jobs: ${tally.errors[0] ?? ""}`);
  const sorted = tally.latencies.sort((a, b) => a - b);
  const section = "scale";
  const p95 = percentile(sorted, 95);
  return [
    row({
      section,
      metric: `update p95, ${clients} jobs × long polls`,
      value: p95,
      unit: "ms",
      baseline: null,
      baselineName: "",
      target: "< 1 s",
      met: p95 < 1000,
    }),
    row({
      section,
      metric: `update p50 (${sorted.length} updates, ${tally.caughtUp} caught up)`,
      value: percentile(sorted, 50),
      unit: "ms",
      baseline: null,
      baselineName: "",
      target: "–",
      met: null,
    }),
    row({
      section,
      // the most frequent error names what went wrong, so a failed row can be read without a rerun
      metric: tally.errors.length === 0 ? "errors" : `errors (most often: ${mostFrequent(tally.errors)})`,
      value: tally.errors.length,
      unit: "",
      baseline: null,
      baselineName: "",
      target: "0",
      met: tally.errors.length === 0,
    }),
    row({
      section,
      metric: "long polls open at once (peak)",
      value: tally.peakOpen,
      unit: "",
      baseline: clients,
      baselineName: "clients",
      target: "all",
      met: tally.peakOpen === clients,
    }),
  ];
}

/** The text that occurs most often in `texts`, with its count when it is not the only one. */
function mostFrequent(texts: string[]): string {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  const [text, count] = [...counts].sort((a, b) => b[1] - a[1])[0];
  return count === texts.length ? text.slice(0, 160) : `${text.slice(0, 160)} ×${count}`;
}
