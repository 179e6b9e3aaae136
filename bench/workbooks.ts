/**
 * Inputs: the crafted workbooks of issue 37, each read five at once as five subjects' previews are
 * on the server (through its read gate, two at a time; five previews of one upload would share one
 * read): temporary bytes left behind, peak RSS growth, and the event loop's longest delay. And .xlsx rows/s for a workbook that
 * keeps its strings in the sheet (SheetJS), beside the same rows as CSV.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import * as XLSX from "xlsx";
import { createReadGate } from "../server/files/staff-files.js";
import { readStaffFile } from "../server/files/read/staff-file.js";
import { READ_LIMITS } from "../server/files/read/xlsx/read-limits.js";
import { resolveLimits } from "../server/limits.js";
import { sharedStringsBombXlsx, zipBombXlsx } from "../test-kit/staff-files.js";
import { row, type BenchOptions, type BenchRow } from "./table.js";

const MB = 1024 * 1024;
/** The documented bound on one read's memory (docs/reliability.md): shared strings and a sheet's rows in flight. */
const READ_MEMORY_MB = 300;

/** A SheetJS workbook of `rows` (strings kept in the sheet, the whole sheet stored uncompressed). */
export function sheetJsXlsx(rows: string[][]): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), "Staff");
  return new Uint8Array(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
}

/** Bytes under `folder`, however deep. */
function bytesUnder(folder: string): number {
  let total = 0;
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    const stat = statSync(path);
    total += stat.isDirectory() ? bytesUnder(path) : stat.size;
  }
  return total;
}

type Measured = { tempBytes: number; rssGrowth: number; delayMs: number };

/** Runs `work` with the temporary folder moved to a fresh one, sampling RSS and the event loop. */
async function measure(work: () => Promise<unknown>): Promise<Measured> {
  const folder = mkdtempSync(join(tmpdir(), "gg-bench-"));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 30));
    return { tempBytes: bytesUnder(folder), rssGrowth: peak - base, delayMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
    clearInterval(sampler);
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The crafted workbooks: a shared-strings bomb, one with no shared strings stopped by the row limit, a zip bomb. */
function crafted(smoke: boolean): [string, () => Uint8Array, Partial<ReturnType<typeof resolveLimits>>][] {
  const scale = smoke ? 1 / 100 : 1;
  const rows = [["Name", "Interests"], ...Array.from({ length: 100_000 * scale }, (_, i) => [`김민준${i}`, "커피"])];
  return [
    ["2,000,000 shared strings (refused)", () => sharedStringsBombXlsx(2_000_000 * scale, false), {}],
    ["no shared strings, stopped by the row limit", () => sheetJsXlsx(rows), { maxRows: 50_000 * scale }],
    ["a zip bomb (400 MB of zeros, refused)", () => zipBombXlsx(smoke ? 4 : 400), {}],
  ];
}

export async function benchWorkbooks({ smoke }: BenchOptions): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  for (const [name, build, limits] of crafted(smoke === true)) {
    const bytes = build();
    const gate = createReadGate(READ_LIMITS);
    const m = await measure(() =>
      Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          gate(`subject ${i}`, () => readStaffFile(bytes, "crafted.xlsx", {}, resolveLimits(limits))),
        ),
      ),
    );
    const metric = (what: string) => `crafted .xlsx read five at once, ${what}: ${name}`;
    out.push(
      row({
        section: "input",
        metric: metric("temp bytes left"),
        value: m.tempBytes,
        unit: "B",
        baseline: null,
        baselineName: "",
        target: "0",
        met: m.tempBytes === 0,
      }),
      row({
        section: "input",
        metric: metric("peak RSS growth"),
        value: m.rssGrowth / MB,
        unit: "MB",
        baseline: null,
        baselineName: "",
        target: `≤ ${5 * READ_MEMORY_MB} MB (5 × the bound of one read)`,
        met: m.rssGrowth <= 5 * READ_MEMORY_MB * MB,
      }),
      row({
        section: "input",
        metric: metric("event-loop max delay"),
        value: m.delayMs,
        unit: "ms",
        baseline: null,
        baselineName: "",
        target: "< 250 ms",
        met: m.delayMs < 250,
      }),
    );
  }
  return out;
}
