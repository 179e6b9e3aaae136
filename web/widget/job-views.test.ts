import type { JobEvent } from "../../shared/job-events.js";
import { applyJobEvents, createJobFold } from "../../shared/job-reducer.js";
import { jobHistory } from "../../test-kit/job-events.js";
import { createJobViews, selectAfterSeq } from "./job-views.js";

const history = jobHistory("job-1");
const bySeq = (...seqs: number[]): JobEvent[] => seqs.map((s) => structuredClone(history[s - 1]));

describe("createJobViews", () => {
  it("applies a batch through the reducer, in any order, and keeps the view object when nothing changed", () => {
    const store = createJobViews();
    store.getState().dispatch("job-1", [...history].reverse());
    const view = store.getState().jobs["job-1"];
    expect(view).toEqual(applyJobEvents(createJobFold("job-1"), history));
    store.getState().dispatch("job-1", bySeq(1, 2, 3));
    expect(store.getState().jobs["job-1"]).toBe(view);
  });

  it("counts duplicates and batches in diagnostics, not in the view", () => {
    const store = createJobViews();
    store.getState().dispatch("job-1", bySeq(1, 2, 2, 3));
    store.getState().dispatch("job-1", bySeq(3, 1, 4));
    expect(store.getState().diagnostics["job-1"]).toMatchObject({ batches: 2, events: 7, duplicates: 3 });
    expect(Object.keys(store.getState().jobs["job-1"])).not.toContain("duplicates");
  });

  it("resumes after the highest contiguous seq, so a gap is fetched again", () => {
    const store = createJobViews();
    store.getState().dispatch("job-1", bySeq(1, 2, 4, 5));
    expect(selectAfterSeq(store.getState(), "job-1")).toBe(2);
    expect(store.getState().cursors["job-1"].ahead).toEqual([4, 5]);
    expect(store.getState().jobs["job-1"].lastSeq).toBe(5);
    store.getState().dispatch("job-1", bySeq(3));
    expect(store.getState().cursors["job-1"]).toEqual({ contiguous: 5, ahead: [] });
  });

  it("ignores events of other jobs", () => {
    const store = createJobViews();
    store.getState().dispatch("job-1", jobHistory("job-2"));
    expect(store.getState().jobs["job-1"]).toEqual(createJobFold("job-1"));
    expect(selectAfterSeq(store.getState(), "job-1")).toBe(0);
  });

  it("records a failure until the next batch arrives", () => {
    const store = createJobViews();
    store.getState().noteFailure("job-1", { code: "timeout", message: "", transient: true });
    expect(store.getState().diagnostics["job-1"]).toMatchObject({ failures: 1, lastError: { code: "timeout" } });
    store.getState().dispatch("job-1", bySeq(1));
    expect(store.getState().diagnostics["job-1"].lastError).toBeNull();
  });
});
