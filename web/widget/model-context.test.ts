/**
 * The model context of a job: what it says while the job runs and once it has ended, the amounts
 * in the job's currency, and when it is worth sending again (never for a percent alone).
 */
import { foldJobEvents } from "../../shared/job-reducer.js";
import type { JobView } from "../../shared/job-view.js";
import type { ResultFigures } from "../../shared/tools.js";
import { jobEvent, jobHistory } from "../../test-kit/job-events.js";
import { contextKey, modelContextOf } from "./conversation.js";

const STAGES = [
  { id: "parse", label: "Parsing the employee list" },
  { id: "match", label: "Matching gifts per person" },
];
/** The job after the first `n` events of a history of eight progress steps. */
const after = (n: number): JobView =>
  foldJobEvents("job_1", jobHistory("job_1", { stages: STAGES, progress: 8 }).slice(0, n));

const FIGURES: ResultFigures = {
  currency: "KRW",
  people: 40,
  withGifts: 38,
  skipped: 2,
  topPicks: 1_180_000,
  budget: 1_500_000,
  unplaced: { count: 3, names: ["Glorbnak", "Vexillology"] },
  departments: Array.from({ length: 14 }, (_, i) => ({
    department: i === 0 ? "R&D\nLab" : i === 13 ? "" : `Team ${i}`,
    people: 3,
    budget: 150_000,
    topPicks: 140_000 - i * 1_000,
  })),
};

describe("modelContextOf", () => {
  it("tells a running job's status, stage in words, counts and time left, as front matter and as fields", () => {
    const { text, structured } = modelContextOf(after(7), null, "en-US");
    expect(structured).toEqual({
      jobId: "job_1",
      title: "Holiday gifts",
      status: "running",
      stage: "Matching gifts per person",
      processed: 5,
      total: 8,
      etaSeconds: 6,
    });
    expect(text).toMatch(
      /^---\njobId: job_1\ntitle: Holiday gifts\nstatus: running\nstage: Matching gifts per person\n/,
    );
    expect(text).toContain("\nprocessed: 5\ntotal: 8\netaSeconds: 6\n---\n");
  });

  it("tells a completed job's figures, the amounts in its currency, the departments' totals and no interest by name", () => {
    const { text, structured } = modelContextOf(after(11), FIGURES, "ko-KR");
    expect(structured).toMatchObject({
      status: "completed",
      people: 40,
      withGifts: 38,
      skippedRows: 2,
      topPicks: "₩1,180,000",
      budget: "₩1,500,000",
      currency: "KRW",
      unplacedInterests: 3,
    });
    expect(structured).not.toHaveProperty("stage");
    const departments = structured.departments as string[];
    // as the figures have them, the largest spend first; a name on one line, no name for the people without one
    expect(departments).toHaveLength(14);
    expect(departments[0]).toBe("R&D Lab: 3 people, top picks ₩140,000 of ₩150,000");
    expect(departments.at(-1)).toBe("(none): 3 people, top picks ₩127,000 of ₩150,000");
    expect(text).toContain("\ndepartments:\n  - R&D Lab: 3 people, top picks ₩140,000 of ₩150,000\n  - Team 1:");
    expect(text).toContain("topPicks: ₩1,180,000\nbudget: ₩1,500,000\ncurrency: KRW\nunplacedInterests: 3\n");
    for (const word of ["Glorbnak", "Vexillology"]) expect(JSON.stringify({ text, structured })).not.toContain(word);
  });

  it("tells a failed job's code and whether to try again, not its message", () => {
    const failed = foldJobEvents("job_1", [
      ...jobHistory("job_1", { stages: STAGES, progress: 3, ending: "running" }),
      jobEvent("job_1", 6, "job.failed", { code: "interrupted", message: "Row 5 (Ada Lovelace) broke it." }),
    ]);
    const { text, structured } = modelContextOf(failed, null, "en-US");
    expect(structured).toMatchObject({ status: "failed", error: "interrupted", retryable: true });
    expect(text).not.toContain("Ada");
  });
});

describe("contextKey", () => {
  it("changes with the stage, the status and the figures' arrival, never with the percent alone", () => {
    const keys = Array.from({ length: 11 }, (_, i) => contextKey(after(i + 1), null));
    // created, started, three steps of parse, five of match, completed
    expect(new Set(keys).size).toBe(5);
    expect(keys[3]).toBe(keys[4]);
    expect(contextKey(after(11), FIGURES)).not.toBe(contextKey(after(11), null));
  });
});
