/**
 * What every benchmark returns: a figure beside a baseline measured in the same run, their ratio,
 * and whether the target holds. `printTable` renders the rows; `run.ts` writes them as JSON.
 */
export type BenchRow = {
  section: string;
  metric: string;
  value: number;
  unit: string;
  baseline: number | null;
  baselineName: string;
  /** value / baseline, or null where there is no baseline. */
  ratio: number | null;
  target: string;
  met: boolean | null;
};

export type BenchOptions = {
  /** Smaller inputs and shorter runs: the whole bench in under a minute. */
  quick: boolean;
  /** Tiny inputs, for the smoke test: the work checks run, the figures mean nothing. */
  smoke?: boolean;
};

export function row(r: Omit<BenchRow, "ratio"> & { ratio?: number | null }): BenchRow {
  const ratio = r.ratio !== undefined ? r.ratio : r.baseline ? r.value / r.baseline : null;
  return { ...r, ratio };
}

export type Section = [name: string, run: (o: BenchOptions) => Promise<BenchRow[]>];

/**
 * Runs `sections` one after the other; one that throws becomes its error row and the rest still run.
 * `progress` hears each section's name as it starts and its seconds as it ends.
 */
export async function runSections(
  sections: Section[],
  options: BenchOptions,
  progress: (text: string) => void = () => {},
): Promise<{ rows: BenchRow[]; failed: string[] }> {
  const rows: BenchRow[] = [];
  const failed: string[] = [];
  for (const [name, run] of sections) {
    const t0 = performance.now();
    progress(`bench ${name}… `);
    try {
      rows.push(...(await run(options)));
    } catch (error) {
      failed.push(name);
      rows.push(errorRow(name, error));
    }
    progress(`${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  return { rows, failed };
}

/** The row of a section that could not run: its error, where its figures would be. */
function errorRow(section: string, error: unknown): BenchRow {
  const message = error instanceof Error ? error.message : String(error);
  return row({
    section,
    metric: `error: ${message.split("\n")[0].slice(0, 200)}`,
    value: NaN,
    unit: "",
    baseline: null,
    baselineName: "",
    target: "runs",
    met: false,
  });
}

const fmt = (n: number | null): string =>
  n === null || Number.isNaN(n)
    ? "–"
    : Math.abs(n) >= 1000
      ? Math.round(n).toLocaleString("en-US")
      : Number(n.toPrecision(3)).toString();

export function printTable(rows: BenchRow[]): void {
  const cells = rows.map((r) => [
    r.section,
    r.metric,
    `${fmt(r.value)} ${r.unit}`,
    r.baseline === null ? "–" : `${fmt(r.baseline)} (${r.baselineName})`,
    r.ratio === null ? "–" : `${r.ratio.toFixed(2)}×`,
    r.target,
    r.met === null ? "" : r.met ? "yes" : "NO",
  ]);
  const head = ["section", "metric", "figure", "baseline", "ratio", "target", "met"];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((s, i) => s.padEnd(widths[i])).join("  ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
}

/** The middle of `values` (the mean of the two middle ones when there is an even number). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
