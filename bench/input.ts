/**
 * Inputs: how fast a staff file is read into a preview and a job input (rows per second, .xlsx
 * beside the same rows as CSV), and how long the worst input of each shape holds the event loop
 * (the longest delay `monitorEventLoopDelay` sees while the job service refuses or runs it).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { readStaffFile } from "../server/files/read/staff-file.js";
import { matchGifts } from "../server/gifts/matcher.js";
import { createJobService } from "../server/jobs/job-service.js";
import { resolveLimits } from "../server/limits.js";
import { createMemoryStore } from "../server/jobs/stores/memory.js";
import type { StartBulkArgs } from "../shared/tools.js";
import { HOBBIES } from "../test-kit/employee-csv.js";
import { delimited, encodeText, staffXlsx } from "../test-kit/staff-files.js";
import { words, worstCsvs, worstFiles } from "../test-kit/worst-inputs.js";
import { bestInTurns } from "./rounds.js";
import { row, type BenchOptions, type BenchRow } from "./table.js";
import { benchWorkbooks, sheetJsXlsx } from "./workbooks.js";

const CALLER = { subject: "bench" };
const MAX_DELAY_MS = 250;

/** The staff list both files hold: `n` people with a team, interests and a budget. */
function staffRows(n: number): string[][] {
  const rows = [["Name", "Team", "Hobbies", "Budget"]];
  for (let i = 0; i < n; i++)
    rows.push([`Person ${i}`, `Team ${i % 12}`, `${HOBBIES[i % 50]};${HOBBIES[(i * 7) % 50]}`, String(20 + (i % 60))]);
  return rows;
}

/** A reading of `bytes`; it throws unless every row became a person. */
const reading = (bytes: Uint8Array, name: string, people: number) => async () => {
  const read = await readStaffFile(bytes, name, {}, resolveLimits());
  if (!read.ok || read.value.preview.people !== people)
    throw new Error(`${name}: ${read.ok ? `${read.value.preview.people} of ${people} people` : read.error.message}`);
};

async function parseRows(n: number, runs: number): Promise<BenchRow[]> {
  const rows = staffRows(n);
  const xlsx = await staffXlsx(rows);
  const csv = encodeText(delimited(rows), "utf-8");
  const perSec = (ms: number) => n / (ms / 1000);
  const [csvRate, xlsxRate, sheetJsRate] = (
    await bestInTurns(runs, [
      reading(csv, "staff.csv", n),
      reading(xlsx, "staff.xlsx", n),
      reading(sheetJsXlsx(rows), "staff.xlsx", n),
    ])
  ).map(perSec);
  const label = n.toLocaleString("en-US");
  return [
    row({
      section: "input",
      metric: `parse rows/s, ${label}-row CSV file (read, previewed, job input written)`,
      value: csvRate,
      unit: "rows/s",
      baseline: null,
      baselineName: "",
      target: "≥ 20,000 rows/s",
      met: csvRate >= 20_000,
    }),
    row({
      section: "input",
      metric: `parse rows/s, ${label}-row .xlsx file (same rows; exceljs, shared strings)`,
      value: xlsxRate,
      unit: "rows/s",
      baseline: csvRate,
      baselineName: "the same rows as CSV",
      target: "≥ 0.3× CSV",
      met: xlsxRate >= 0.3 * csvRate,
    }),
    row({
      section: "input",
      metric: `parse rows/s, ${label}-row .xlsx file (same rows; SheetJS, strings in the sheet)`,
      value: sheetJsRate,
      unit: "rows/s",
      baseline: csvRate,
      baselineName: "the same rows as CSV",
      target: "≥ 0.3× CSV",
      met: sheetJsRate >= 0.3 * csvRate,
    }),
  ];
}

/** The longest event-loop delay while `work` runs, in ms. */
async function maxDelay(work: () => Promise<void>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    await work();
    // a few samples more, so that work done within one sample interval still shows
    await new Promise((resolve) => setTimeout(resolve, 30));
  } finally {
    histogram.disable();
  }
  return histogram.max / 1e6;
}

/** The worst inputs, each built before it is measured: the worst-input test's, and a million interests as employees. */
function worstInputs(smoke: boolean): [string, () => Promise<Partial<StartBulkArgs> | Uint8Array>][] {
  const scale = smoke ? 1 / 64 : 1;
  return [
    ...worstCsvs(scale).map(([name, csv]): [string, () => Promise<{ csv: string }>] => [
      name,
      async () => ({ csv: csv() }),
    ]),
    [
      "1,000,000 interests as employees",
      async () => ({ employees: [{ name: "A", interests: words(1_000_000 * scale) }] }),
    ],
    ...worstFiles(scale).map(([name, bytes]): [string, () => Promise<Uint8Array>] => [name, bytes]),
  ];
}

/** Rows: parse rows/s for .xlsx beside CSV; the event loop's longest delay under the worst inputs. */
export async function benchInput({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  await parseRows(smoke ? 50 : 20_000, 2); // warm-up: the reader's code compiled
  for (const n of smoke ? [200] : quick ? [5_000] : [5_000, 50_000]) rows.push(...(await parseRows(n, smoke ? 1 : 2)));
  const jobs = createJobService({ store: createMemoryStore(), match: matchGifts });
  try {
    for (const [name, build] of worstInputs(smoke === true)) {
      const input = await build();
      const delay = await maxDelay(async () => {
        if (input instanceof Uint8Array) {
          await readStaffFile(input, "staff", {}, resolveLimits());
          return;
        }
        const started = await jobs.start({ occasion: "holiday", budgetPerPerson: 40, ...input }, CALLER);
        if (started.ok) await jobs.waitFor({ jobId: started.value.jobId, timeoutMs: 600_000 }, CALLER, () => {});
      });
      rows.push(
        row({
          section: "input",
          metric: `worst-case input, event-loop max delay: ${name}`,
          value: delay,
          unit: "ms",
          baseline: null,
          baselineName: "",
          target: `< ${MAX_DELAY_MS} ms`,
          met: delay < MAX_DELAY_MS,
        }),
      );
    }
  } finally {
    await jobs.close();
  }
  rows.push(...(await benchWorkbooks({ quick, smoke })));
  return rows;
}
