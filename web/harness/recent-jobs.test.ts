import { createJobFold, toJobView } from "../../shared/job-reducer.js";
import { addRecentJob, keepableInput, recentJobOf, reopenedResult, rowCount, type RecentJob } from "./recent-jobs.js";

const started = {
  jobId: "job_1",
  status: "pending",
  stages: [{ id: "parse", label: "Reading" }],
  resultUri: "gifts://jobs/job_1/result",
};
const context = { hostKind: "mcp-apps", protocol: "2026-07-28", paceMs: 500 } as const;

describe("recent jobs", () => {
  it("take a start's job with its occasion, its rows when the call carried the list, and its arguments", () => {
    const csv = "name,interests\nA,tea\n\nB,books\n";
    expect(recentJobOf({ occasion: "Farewell", budgetPerPerson: 60, csv }, started, context)).toEqual({
      ...context,
      jobId: "job_1",
      occasion: "Farewell",
      rows: 2,
      input: { occasion: "Farewell", budgetPerPerson: 60, csv },
    });
    const employees = [{ name: "A", interests: [] }];
    expect(recentJobOf({ occasion: "x", employees }, started, context)?.rows).toBe(1);
    expect(recentJobOf({ occasion: "x", uploadId: "u" }, started, context)?.rows).toBeNull();
  });

  it("take nothing from a start that names no job: a failure, or the widget asked for a file", () => {
    expect(recentJobOf({ occasion: "x" }, { error: { code: "invalid_csv", message: "m" } }, context)).toBeNull();
    expect(recentJobOf({ occasion: "x" }, { awaitingFile: true, occasion: "x" }, context)).toBeNull();
    expect(recentJobOf({ occasion: "x" }, undefined, context)).toBeNull();
  });

  it("keep the arguments only while they are small", () => {
    expect(keepableInput({ csv: "x".repeat(64 * 1024) })).not.toBeNull();
    expect(keepableInput({ csv: "x".repeat(64 * 1024 + 1) })).toBeNull();
    expect(keepableInput({ employees: [{ name: "x".repeat(64 * 1024 + 1) }] })).toBeNull();
  });

  it("list the newest first, each job once, ten at most", () => {
    const job = (jobId: string): RecentJob => ({ ...context, jobId, occasion: "", rows: null, at: 0, input: null });
    let list = [job("a"), job("b")];
    list = addRecentJob(list, job("b"));
    expect(list.map((j) => j.jobId)).toEqual(["b", "a"]);
    for (let i = 0; i < 20; i++) list = addRecentJob(list, job(`${i}`));
    expect(list.map((j) => j.jobId)).toEqual(["19", "18", "17", "16", "15", "14", "13", "12", "11", "10"]);
    expect(rowCount("")).toBe(0);
  });

  it("open again as the start's result with the status and stages wait_for_job gives, or as the failure it gave", () => {
    const reply = {
      content: [{ type: "text", text: "Job job_1 completed" }],
      structuredContent: { jobId: "job_1", status: "completed", done: true, view: completedView() },
    };
    expect(reopenedResult("job_1", reply)).toEqual({
      content: reply.content,
      structuredContent: {
        jobId: "job_1",
        status: "completed",
        stages: [{ id: "parse", label: "Reading" }],
        resultUri: "gifts://jobs/job_1/result",
      },
    });
    const gone = {
      content: [{ type: "text", text: "No job job_1" }],
      structuredContent: { error: { code: "unknown_job", message: "No job job_1" } },
      isError: true,
    };
    expect(reopenedResult("job_1", gone)).toBe(gone);
  });
});

/** A job view as wait_for_job gives it, finished. */
function completedView() {
  const view = toJobView(createJobFold("job_1"));
  return { ...view, status: "completed", percentage: 100, stages: [{ id: "parse", label: "Reading", state: "done" }] };
}
