/**
 * How a run hands its events to the log: a report that is followed at once by the next one (the
 * job's start and its first stage, a stage's last report and the next stage, the last report and
 * the job's end) goes out in the same append; reports a slice of work apart go out one by one.
 */
import type { EventDraft } from "../state-machine.js";
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
