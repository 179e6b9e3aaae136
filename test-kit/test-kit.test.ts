/**
 * The kit checks its own output: every history it builds keeps the event contract and folds to
 * its ending, and the employee CSVs have the rows, line ends and first row that tests rely on.
 */
import type { JobStatus } from "../shared/job-view.js";
import { employeeCsv } from "./employee-csv.js";
import { jobHistory, type Ending } from "./job-events.js";
import { expectJobHistory } from "./job-history.js";

describe("jobHistory", () => {
  it.each<[Ending, JobStatus, number, string[]]>([
    ["completed", "completed", 9, ["parse", "match", "write"]],
    ["failed", "failed", 4, ["parse", "match"]],
    ["canceled", "canceled", 4, ["parse", "match"]],
  ])("builds a history that ends %s and keeps the event contract", (ending, status, count, entered) => {
    const events = jobHistory("job-k", { ending, progress: count, steps: 9 });
    const { stages, progress } = expectJobHistory(events, { jobId: "job-k", status });
    expect(progress.map((p) => p.processed)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(stages).toEqual(entered);
    expect(events.map((e) => e.eventId)).toEqual(events.map((e) => `job-k:${e.seq}`));
  });

  it("spreads the progress over the plan up to `top`, with an ETA per step left", () => {
    const events = jobHistory("job-k", { started: false, progress: 6, top: 60, etaPerStep: 5, ending: "running" });
    expect(events.map((e) => e.type)).toEqual(["job.created", ...Array(6).fill("job.progress")]);
    const progress = events.flatMap((e) => (e.type === "job.progress" ? [e.payload] : []));
    expect(progress.map((p) => [p.stage, p.percentage, p.etaSeconds])).toEqual([
      ["parse", 10, 25],
      ["parse", 20, 20],
      ["match", 30, 15],
      ["match", 40, 10],
      ["write", 50, 5],
      ["write", 60, 0],
    ]);
  });
});

describe("employeeCsv", () => {
  it("writes a header and one line per row, every line ended, in LF or CRLF", () => {
    const lf = employeeCsv(7);
    expect(lf.split("\n")).toHaveLength(9);
    expect(lf.endsWith("\n")).toBe(true);
    expect(employeeCsv(7, { crlf: true })).toBe(lf.replace(/\n/g, "\r\n"));
    expect(lf.split("\n").slice(0, 2)).toEqual([
      "name,department,interests,budget",
      '"Ada Lovelace 0","Engineering","coffee;hiking",',
    ]);
  });

  it("draws the same varied rows from the same seed, and others from another", () => {
    const a = employeeCsv(50, { seed: 1 });
    expect(employeeCsv(50, { seed: 1 })).toBe(a);
    expect(employeeCsv(50, { seed: 2 })).not.toBe(a);
    expect(a.split("\n")).toHaveLength(52);
  });
});
