/**
 * How a run hands its events to the log: a report that is followed at once by the next one (the
 * job's start and its first stage, a stage's last report and the next stage, the last report and
 * the job's end) goes out in the same append; reports a slice of work apart go out one by one.
 */
import type { EventDraft } from "../state-machine.js";
import type { ResultHead } from "../store.js";
import { testMatch } from "../test-fixtures.js";
import { runBulkAnalysis } from "./bulk-analysis.js";
import { createSliceGate } from "./slice-gate.js";
import { jobTexts } from "./texts.js";

const name = (d: EventDraft) => (d.type === "job.progress" ? `${d.payload.stage} ${d.payload.percentage}` : d.type);

async function appendsOf(people: number, slowSteps = false) {
  const appends: string[][] = [];
  // each person a budget of their own, so that no answer is remembered from another
  const employees = Array.from({ length: people }, (_, i) => ({
    name: `P${i}`,
    interests: ["coffee"],
    budget: 20 + i,
  }));
  await runBulkAnalysis({
    jobId: "j",
    input: { occasion: "holiday", budgetPerPerson: 40, employees },
    estimatedRows: people,
    maxRows: 1_000_000,
    match: (request) => {
      // a step slow enough that a stage takes several slices of work
      if (slowSteps) for (const until = performance.now() + 0.05; performance.now() < until;);
      return testMatch(request);
    },
    gate: createSliceGate(),
    texts: jobTexts("en"),
    signal: new AbortController().signal,
    putChunk: async () => {},
    emit: async (drafts) => void appends.push(drafts.map(name)),
  });
  return appends;
}

describe("runBulkAnalysis", () => {
  it("appends a small job's nine events in five steps, each report with the one that follows it at once", async () => {
    const appends = await appendsOf(3);
    expect(appends.map((a) => a.map((n) => n.split(" ")[0]))).toEqual([
      ["job.started", "parse"],
      ["parse", "extract"],
      ["extract", "match"],
      ["match", "compose"],
      ["job.completed"], // the compose stage's end is 100 %, which job.completed reports
    ]);
  });

  it("sends the reports of a stage that takes several slices as they come, in order", async () => {
    const appends = await appendsOf(1_000, true);
    const matching = appends.filter((a) => a.every((n) => n.startsWith("match")));
    expect(matching.length).toBeGreaterThan(0);
    const percentages = appends.flat().flatMap((n) => (n.startsWith("job.") ? [] : [Number(n.split(" ")[1])]));
    expect(percentages).toEqual([...percentages].sort((a, b) => a - b));
    expect(appends.at(-1)?.at(-1)).toBe("job.completed");
  });
});

describe("the parse stage", () => {
  const columns = {
    name: 0,
    department: -1,
    interests: 1,
    budget: -1,
    row: -1,
    skip: -1,
    width: 2,
    separator: ";",
    headerRow: 2,
  };
  const run = (csv: string, maxRows = 1_000) => {
    let head: ResultHead | undefined;
    const done = runBulkAnalysis({
      jobId: "j",
      input: { occasion: "holiday", budgetPerPerson: 40, csv },
      columns,
      estimatedRows: 1,
      maxRows,
      match: testMatch,
      gate: createSliceGate(),
      texts: jobTexts("en"),
      signal: new AbortController().signal,
      putChunk: async () => {},
      emit: async (_drafts, h) => void (head = h ?? head),
    });
    return done.then(() => head);
  };

  it("reads from the header's row with the separator found, and skips repeats and empty rows between others", async () => {
    const head = await run("\nName;Likes\nKim;tea\n\nkim ;coffee\nLee;\n\n\n");
    expect(head).toMatchObject({ total: 2 });
    expect(head?.skipped).toEqual([
      { row: 4, reason: "the row is empty" },
      { row: 5, reason: "it repeats row 3" },
    ]);
  });

  it("fails the job when more rows than the limit turn up once read, trailing blank lines aside", async () => {
    await expect(
      run(`\nName;Likes\n${Array.from({ length: 4 }, (_, i) => `P${i};t`).join("\n")}`, 3),
    ).rejects.toMatchObject({
      code: "too_many_rows",
      message: "The CSV has more than 3 rows.",
    });
    expect(await run(`\nName;Likes\nA;b\nB;c\nC;d\n\n\n\n\n`, 3)).toMatchObject({ total: 3, skipped: [] });
  });
});
