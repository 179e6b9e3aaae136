/**
 * Bulk-job throughput: rows per second for a generated 100,000-row CSV from `start` to
 * `job.completed`, through the JobService in process (SQLite store in a temp dir, the real
 * matcher), against csv-parse reading the same file alone with the job's options (the ceiling).
 * Also the events one job emits and the process's peak RSS against its RSS before the job.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, type Options } from "csv-parse";
import { matchGifts } from "../server/gifts/matcher.js";
import { createJobService } from "../server/jobs/job-service.js";
import { createSqliteStore } from "../server/jobs/stores/sqlite.js";
import { bestInTurns } from "./rounds.js";
import { row, type BenchOptions, type BenchRow } from "./table.js";
import { employeeCsv } from "../test-kit/employee-csv.js";

const CALLER = { subject: "bench" };
const MB = 1024 * 1024;

/** csv-parse alone, as server/files/read/csv/reader.ts drives it: the same options, 64 KB slices. */
async function parseOnly(csv: string): Promise<number> {
  const options: Options & { readableHighWaterMark: number } = {
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_records_with_error: true,
    readableHighWaterMark: 1 << 30,
  };
  const parser = parse(options);
  let records = 0;
  const drain = () => {
    while (parser.read() !== null) records++;
  };
  const bytes = Buffer.from(csv, "utf8");
  for (let offset = 0; offset < bytes.length; offset += 64 * 1024) {
    parser.write(bytes.subarray(offset, offset + 64 * 1024));
    drain();
  }
  const finished = new Promise((resolve) => parser.once("finish", resolve));
  parser.end();
  await finished;
  drain();
  return records - 1; // the header
}

/** Runs one job to its end; its duration, events by type, peak RSS and final view. */
async function runJob(dir: string, csv: string, rows: number) {
  const jobs = createJobService({ store: createSqliteStore(join(dir, `jobs-${randomUUID()}.db`)), match: matchGifts });
  const counts = { events: 0, progress: 0, lastSeq: 0, outOfOrder: 0 };
  // where the bar stood when each stage began, against the share of the job's time gone by then
  const entries: { at: number; percentage: number }[] = [];
  let startedAt = 0;
  let endedAt = 0;
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const unsubscribe = jobs.onEvent(({ event }) => {
    if (event.seq !== counts.lastSeq + 1) counts.outOfOrder++; // a throw here would be swallowed
    counts.lastSeq = event.seq;
    counts.events++;
    if (event.type === "job.progress") counts.progress++;
    if (event.type === "job.started") startedAt = performance.now();
    if (event.type === "job.progress" && event.payload.processed === 0)
      entries.push({ at: performance.now(), percentage: event.payload.percentage });
    if (event.type === "job.completed") endedAt = performance.now();
    sample();
  });
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  const sampler = setInterval(sample, 5);
  try {
    const t0 = performance.now();
    const started = await jobs.start({ csv, occasion: "holiday", budgetPerPerson: 50 }, CALLER);
    if (!started.ok) throw new Error(started.error.message);
    const waited = await jobs.waitFor({ jobId: started.value.jobId, timeoutMs: 600_000 }, CALLER, () => {});
    const ms = performance.now() - t0;
    sample();
    if (!waited.ok) throw new Error(waited.error.message);
    const view = waited.value.view;
    if (view.status !== "completed" || view.resultCount !== rows || counts.outOfOrder > 0) {
      throw new Error(
        `the job ended ${view.status} with ${view.resultCount} of ${rows} people, ${counts.events} events seen`,
      );
    }
    const page = await jobs.getResult({ jobId: view.jobId, offset: rows - 1, limit: 1 }, CALLER);
    if (!page.ok || page.value.total !== rows || page.value.people[0]?.gifts.length === 0)
      throw new Error("the result is not readable");
    const span = endedAt - startedAt;
    const boundaryGap = Math.max(...entries.map((e) => Math.abs(e.percentage - (100 * (e.at - startedAt)) / span)));
    return { ms, ...counts, before, peak, boundaryGap };
  } finally {
    clearInterval(sampler);
    unsubscribe();
    await jobs.close();
  }
}

/** Rows: end-to-end rows/s against csv-parse alone, progress and total events of one job, peak RSS. */
export async function benchJobs({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const rows = smoke ? 500 : quick ? 20_000 : 100_000;
  const csv = employeeCsv(rows, { seed: 42 });
  const dir = mkdtempSync(join(tmpdir(), "giftgenius-bench-"));
  try {
    await runJob(dir, employeeCsv(Math.min(rows, 5_000), { seed: 3 }), Math.min(rows, 5_000)); // warm-up
    // the RSS figures come from the first run, before parsing garbage raises the baseline
    const job = await runJob(dir, csv, rows);
    // then the job again and csv-parse alone, in turns: each keeps its best time
    const parse = async () => {
      const records = await parseOnly(csv);
      if (records !== rows) throw new Error(`csv-parse read ${records} of ${rows} rows`);
    };
    const [jobMs, parseMs] = await bestInTurns(smoke ? 1 : 2, [() => runJob(dir, csv, rows), parse]);
    job.ms = Math.min(job.ms, jobMs);
    const perSec = (ms: number) => rows / (ms / 1000);
    const n = rows.toLocaleString("en-US");
    const section = "jobs";
    const growth = job.peak - job.before;
    return [
      row({
        section,
        metric: `rows/s, ${n}-row CSV end to end`,
        value: perSec(job.ms),
        unit: "rows/s",
        baseline: perSec(parseMs),
        baselineName: "csv-parse alone",
        target: "≥ 0.5×",
        met: job.ms <= 2 * parseMs,
      }),
      row({
        section,
        metric: "progress events per job",
        value: job.progress,
        unit: "",
        baseline: rows,
        baselineName: "one per row",
        target: "≤ ~100",
        met: job.progress <= 110,
      }),
      row({
        section,
        metric: "bar vs time gone by, at stage starts (points)",
        value: Math.round(job.boundaryGap * 10) / 10,
        unit: "",
        baseline: null,
        baselineName: "",
        target: "≤ ~10",
        met: job.boundaryGap <= 10,
      }),
      row({
        section,
        metric: "events per job, all types",
        value: job.events,
        unit: "",
        baseline: null,
        baselineName: "",
        target: "–",
        met: null,
      }),
      row({
        section,
        metric: `peak RSS (growth ${(growth / rows / 1024).toFixed(1)} KB/row)`,
        value: job.peak / MB,
        unit: "MB",
        baseline: job.before / MB,
        baselineName: "RSS before the job",
        target: "growth ≤ 2 KB/row",
        met: growth <= rows * 2048,
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
