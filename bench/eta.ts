/**
 * How honest the ETA is: every progress report's `etaSeconds` from 20 % on against the time the job
 * then took, on jobs of 1,000 to 200,000 rows, from CSV and from the same people in an .xlsx read as
 * the tool reads it, and from a Korean team's workbook where everyone shares ten interest texts (so
 * the stages after parsing remember nearly every answer), alone and with another job running beside
 * it in the same process. The other job starts
 * at the same moment and is half the size, so it ends part-way and the job speeds up then: the
 * hardest case for an estimate from the rate so far.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import * as XLSX from "xlsx";
import { matchGifts } from "../server/gifts/matcher.js";
import { readStaffFile } from "../server/files/read/staff-file.js";
import { createJobService, type JobService } from "../server/jobs/job-service.js";
import { createSqliteStore } from "../server/jobs/stores/sqlite.js";
import { DEFAULT_LIMITS } from "../server/limits.js";
import type { StartBulkArgs } from "../shared/tools.js";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { KOREAN_HEADER, koreanStaff } from "../test-kit/korean-workbook.js";
import { etaErrors, worstError, type SeenReport } from "../test-kit/eta-error.js";
import { row, type BenchOptions, type BenchRow } from "./table.js";

const CALLER = { subject: "bench-eta" };
/** Room for 200,000 generated rows: 10 MB of CSV. */
const LIMITS = { ...DEFAULT_LIMITS, maxCsvBytes: 16 * 1024 * 1024 };
type Input = { args: StartBulkArgs; read: boolean };

type Kind = "csv" | "xlsx" | "team";
const KIND_NAME: Record<Kind, string> = { csv: ".csv", xlsx: ".xlsx", team: "Korean team .xlsx, ten interest texts" };

/**
 * A job's input of `rows` people: generated CSV, the same people in a workbook, or a Korean team's
 * list in one, each workbook read by the staff-file reader.
 */
async function inputOf(kind: Kind, rows: number): Promise<Input> {
  const csv = employeeCsv(rows, { seed: rows });
  const kept = { occasion: "holiday", budgetPerPerson: 50 };
  if (kind === "csv") return { args: { csv, ...kept }, read: false };
  const grid: (string | number)[][] =
    kind === "xlsx"
      ? parse(csv, {})
      : [KOREAN_HEADER, ...koreanStaff(rows).map((p) => [p.id, p.name, p.department, p.interests, p.budget])];
  // written as Excel writes a workbook: strings in a shared table, parts compressed
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(grid), "Staff");
  const bytes = XLSX.write(book, { type: "buffer", bookType: "xlsx", bookSST: true, compression: true }) as Buffer;
  const table = await readStaffFile(new Uint8Array(bytes), "staff.xlsx", {}, LIMITS);
  if (!table.ok || !table.value.preview.ready) throw new Error(`the workbook of ${rows} rows was not read`);
  const money = kind === "team" ? { budgetPerPerson: 50_000, currency: "KRW" as const } : {};
  return { args: { csv: table.value.csv, ...kept, ...money }, read: true };
}

/** Starts `input` on `jobs`; its id. */
async function start(jobs: JobService, { args, read }: Input): Promise<string> {
  const started = await jobs.start(args, CALLER, { read });
  if (!started.ok) throw new Error(started.error.message);
  return started.value.jobId;
}

/** How far the bar stood from the share of the time gone by when each stage began, in points at most. */
function barGap(reports: (SeenReport & { stage: string })[], endedAt: number): number {
  const first = reports[0]?.at ?? endedAt;
  const entries = reports.filter((r, i) => i === 0 || r.stage !== reports[i - 1].stage);
  return Math.max(0, ...entries.map((e) => Math.abs(e.percentage - (100 * (e.at - first)) / (endedAt - first))));
}

/** Runs `input` to its end, with `beside` started at the same moment if given; its ETA errors and bar gap. */
async function seenOf(dir: string, input: Input, beside?: Input): Promise<{ errors: number[]; barGap: number }> {
  const jobs = createJobService({
    store: createSqliteStore(join(dir, `eta-${randomUUID()}.db`)),
    match: matchGifts,
    limits: LIMITS,
  });
  const reports: (SeenReport & { stage: string })[] = [];
  let endedAt = 0;
  let jobId = "";
  const unsubscribe = jobs.onEvent(({ event }) => {
    if (event.jobId !== jobId) return;
    if (event.type === "job.progress") reports.push({ at: performance.now(), ...event.payload });
    if (event.type === "job.completed") endedAt = performance.now();
  });
  try {
    const other = beside && start(jobs, beside);
    jobId = await start(jobs, input);
    const waited = await jobs.waitFor({ jobId, timeoutMs: 600_000 }, CALLER, () => {});
    if (!waited.ok || waited.value.view.status !== "completed") throw new Error(`the job of ${jobId} did not complete`);
    if (other) {
      const otherId = await other;
      const beside = await jobs.waitFor({ jobId: otherId, timeoutMs: 600_000 }, CALLER, () => {});
      if (!beside.ok || beside.value.view.status !== "completed")
        throw new Error(`the job beside, ${otherId}, did not complete`);
    }
    return { errors: etaErrors(reports, endedAt), barGap: barGap(reports, endedAt) };
  } finally {
    unsubscribe();
    await jobs.close();
  }
}

const percent = (x: number) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(Math.round(x * 100))} %`;

/** Rows: for each size, input and company, the share of ETAs within 25 % of the real end, and the worst. */
export async function benchEta({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const sizes = smoke ? [1_000, 5_000] : quick ? [1_000, 10_000, 50_000] : [1_000, 10_000, 100_000, 200_000];
  const dir = mkdtempSync(join(tmpdir(), "giftgenius-eta-"));
  const rows: BenchRow[] = [];
  try {
    await seenOf(dir, await inputOf("csv", sizes.at(-1)! / 2)); // warm-up: code compiled, heap grown
    for (const kind of ["csv", "xlsx", "team"] as const) {
      for (const size of sizes) {
        const input = await inputOf(kind, size);
        const half = await inputOf(kind, size / 2);
        for (const beside of [undefined, half]) {
          const { errors, barGap: gap } = await seenOf(dir, input, beside);
          const within = errors.filter((e) => Math.abs(e) <= 0.25).length / Math.max(1, errors.length);
          const worst = worstError(errors);
          const what = `${size.toLocaleString("en-US")} rows, ${KIND_NAME[kind]}${beside ? ", another job beside" : ""}`;
          rows.push(
            row({
              section: "eta",
              metric: `ETAs within 25 %: ${what} (${errors.length} judged, worst ${percent(worst)}; bar ${Math.round(gap)} points from the time at stage starts)`,
              value: Math.round(within * 100),
              unit: "%",
              baseline: null,
              baselineName: "",
              target: "≥ 80, worst within ±60",
              // a job too short to leave half a second after 20 % gives no ETA a person could read
              met: errors.length === 0 ? null : within >= 0.8 && Math.abs(worst) <= 0.6,
            }),
          );
        }
      }
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
