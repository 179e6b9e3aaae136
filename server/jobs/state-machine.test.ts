/**
 * The lifecycle check: pending → running → completed | failed | canceled, nothing after the end,
 * no going back in percentage.
 */
import { applyJobEvent, createJobFold, type JobFold } from "../../shared/job-reducer.js";
import { envelope } from "../../test-kit/job-events.js";
import { checkTransition, type EventDraft } from "./state-machine.js";

const created: EventDraft = { type: "job.created", payload: { kind: "k", title: "t", stages: [] } };
const started: EventDraft = { type: "job.started", payload: {} };
const progress = (percentage: number): EventDraft => ({
  type: "job.progress",
  payload: { percentage, stage: "parse" },
});
const completed: EventDraft = { type: "job.completed", payload: { summary: "s", resultResourceId: "r" } };
const failed: EventDraft = { type: "job.failed", payload: { code: "x", message: "m", retryable: false } };
const canceled: EventDraft = { type: "job.canceled", payload: {} };

/** The view after accepting `drafts` one by one (each must be accepted). */
function after(...drafts: EventDraft[]): JobFold {
  let view = createJobFold("j");
  for (const d of drafts) {
    expect(checkTransition(view, d)).toBeNull();
    view = applyJobEvent(view, { ...envelope("j", view.lastSeq + 1), ...d });
  }
  return view;
}

describe("checkTransition", () => {
  it("accepts a whole successful life", () => {
    expect(after(created, started, progress(10), progress(10), progress(55), completed).status).toBe("completed");
  });

  it("lets a pending or running job fail or be canceled", () => {
    expect(after(created, failed).status).toBe("failed");
    expect(after(created, canceled).status).toBe("canceled");
    expect(after(created, started, progress(3), failed).status).toBe("failed");
    expect(after(created, started, canceled).status).toBe("canceled");
  });

  it("wants job.created first and only once", () => {
    expect(checkTransition(createJobFold("j"), started)).toBe("job.started before job.created");
    expect(checkTransition(after(created), created)).toBe("job.created twice");
  });

  it("refuses progress and completion before the start, and a second start", () => {
    expect(checkTransition(after(created), progress(1))).toBe("job.progress before job.started");
    expect(checkTransition(after(created), completed)).toBe("job.completed before job.started");
    expect(checkTransition(after(created, started), started)).toBe("job.started twice");
  });

  it("never lets the percentage go back or past 100", () => {
    const view = after(created, started, progress(40));
    expect(checkTransition(view, progress(39))).toBe("percentage 39 after 40");
    expect(checkTransition(view, progress(101))).toBe("percentage 101 after 40");
    expect(checkTransition(view, progress(40))).toBeNull();
  });

  it.each([
    ["completed", [created, started, completed]],
    ["failed", [created, failed]],
    ["canceled", [created, started, canceled]],
  ])("allows nothing after the job was %s", (status, drafts) => {
    const view = after(...(drafts as EventDraft[]));
    for (const d of [started, progress(100), completed, failed, canceled]) {
      expect(checkTransition(view, d)).toBe(`${d.type} after the job was ${status}`);
    }
  });
});
