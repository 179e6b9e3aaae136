// @vitest-environment jsdom
import { applyJobEvents, createJobFold } from "../../shared/job-reducer.js";
import { TOOL } from "../../shared/tools.js";
import { installFakeHost, type FakeHost, type FakeHostOptions } from "../../test-kit/widget/fake-host.js";
import { followJob, type FollowTuning } from "./follow-job.js";
import { createHost } from "./host-context.js";
import type { Host } from "./host.js";
import { createJobViews, selectAfterSeq, type JobViews } from "./job-views.js";

const FAST: FollowTuning = { waitMs: 0, backoff: { baseMs: 1, maxMs: 4 }, idleMs: 1, callTimeoutMs: 1000 };
let fake: FakeHost;
let host: Host;
let store: JobViews;

function setup(options: FakeHostOptions) {
  fake = installFakeHost(options);
  host = createHost();
  store = createJobViews();
}
afterEach(() => {
  host?.dispose();
  fake?.uninstall();
});

/**
 * Resolves once the loop has stopped: no call to get_job_events in `quietMs`, many times the
 * longest pause a loop of these tests makes between two calls.
 */
async function loopStopped(quietMs = 40) {
  for (;;) {
    const calls = fake.argsOf(TOOL.getJobEvents).length;
    await new Promise((r) => setTimeout(r, quietMs));
    if (fake.argsOf(TOOL.getJobEvents).length === calls) return;
  }
}

/** Follows `job-1` until the loop ends by itself. */
async function followToEnd(tuning: FollowTuning = FAST) {
  followJob({ ...tuning, host, store, jobId: "job-1" });
  await loopStopped();
}
const fullView = (jobId = "job-1") => applyJobEvents(createJobFold(jobId), fake.historyOf(jobId));

describe("followJob", () => {
  it.each([
    ["full results", { shape: "full" as const }],
    ["{ result } strings", { shape: "legacy" as const }],
    ["both shapes in turn", { shape: "alternate" as const }],
  ])("follows a job to the end through duplicates, reordering, gaps and rejected calls (%s)", async (_name, shape) => {
    setup({
      jobs: [{ progressPerStage: 5 }],
      batchSize: 5,
      faults: { duplicate: true, reorder: true, gaps: true, rejectEvery: 3, ...shape },
    });
    await followToEnd();
    expect(store.getState().jobs["job-1"]).toEqual(fullView());
    const d = store.getState().diagnostics["job-1"];
    expect(d.duplicates).toBeGreaterThan(0);
    expect(d.failures).toBeGreaterThan(0);
    expect(selectAfterSeq(store.getState(), "job-1")).toBe(fake.historyOf("job-1").length);
  });

  it("asks for events after the highest contiguous seq, never skipping a gap", async () => {
    setup({ batchSize: 4, faults: { gaps: true, reorder: true }, seed: 3 });
    const asked: number[] = [];
    const applied = new Set<number>();
    store.subscribe((s) => {
      for (const e of Object.values(s.cursors)) applied.add(e.contiguous);
    });
    await followToEnd();
    for (const args of fake.argsOf(TOOL.getJobEvents)) asked.push(Number(args.afterSeq));
    expect(asked[0]).toBe(0);
    for (const a of asked) expect(a === 0 || applied.has(a)).toBe(true);
    expect(store.getState().jobs["job-1"]).toEqual(fullView());
  });

  it("persists { jobId } once, when it starts following: where it is comes from the events", async () => {
    setup({ batchSize: 6 });
    await followToEnd();
    const states = fake.argsOf("setWidgetState").map((a) => a.state);
    expect(states).toEqual([{ jobId: "job-1" }]);
  });

  it("comes back with empty views by folding the job again from its first event: the same view", async () => {
    setup({ batchSize: 100, faults: { duplicate: true } });
    await followToEnd(); // the server has appended everything once
    const total = fake.historyOf("job-1").length;
    const first = store.getState().jobs["job-1"];
    store = createJobViews();
    const before = fake.argsOf(TOOL.getJobEvents).length;
    await followToEnd();
    const resumed = fake.argsOf(TOOL.getJobEvents).slice(before);
    expect(resumed[0]).toMatchObject({ afterSeq: 0, waitMs: 0 });
    expect(store.getState().jobs["job-1"]).toEqual(fullView());
    expect(store.getState().jobs["job-1"]).toEqual(first);
    expect(selectAfterSeq(store.getState(), "job-1")).toBe(total);
  });

  it("waits at most 1.5 s per poll, so that a host running one call at a time frees its slot for Cancel within 2 s", async () => {
    setup({ batchSize: 2 });
    await followToEnd({ ...FAST, waitMs: undefined });
    const waits = fake.argsOf(TOOL.getJobEvents).map((a) => a.waitMs);
    expect(waits[0]).toBe(0);
    expect(new Set(waits.slice(1))).toEqual(new Set([1_500]));
  });

  it("runs one loop per job however many follow it, and stops when all release it", async () => {
    setup({ jobs: [{ progressPerStage: 200 }], batchSize: 1, latencyMs: 2 });
    const releaseA = followJob({ ...FAST, host, store, jobId: "job-1" });
    const releaseB = followJob({ ...FAST, host, store, jobId: "job-1" });
    await vi.waitFor(() => expect(fake.argsOf(TOOL.getJobEvents).length).toBeGreaterThan(5));
    expect(fake.maxInFlight()).toBe(1);
    releaseA();
    // still followed for B
    const before = fake.argsOf(TOOL.getJobEvents).length;
    await vi.waitFor(() => expect(fake.argsOf(TOOL.getJobEvents).length).toBeGreaterThan(before + 2));
    releaseB();
    const calls = fake.argsOf(TOOL.getJobEvents).length;
    await new Promise((r) => setTimeout(r, 30));
    expect(fake.argsOf(TOOL.getJobEvents).length).toBe(calls);
  });

  it("stops on a failure that retrying cannot fix, and keeps it for the UI", async () => {
    setup({});
    followJob({ ...FAST, host, store, jobId: "job-404" });
    await loopStopped();
    expect(store.getState().diagnostics["job-404"].lastError).toMatchObject({ code: "unknown_job", transient: false });
    expect(fake.argsOf(TOOL.getJobEvents)).toHaveLength(1);
  });

  it("backs off exponentially, capped, after rejected calls, then resumes from the last seq", async () => {
    vi.useFakeTimers();
    setup({ batchSize: 2, latencyMs: 0, faults: { rejectCalls: [3, 4, 5, 6, 7, 8] } });
    const release = followJob({
      host,
      store,
      jobId: "job-1",
      waitMs: 0,
      idleMs: 0,
      backoff: { baseMs: 250, maxMs: 2000 },
      random: () => 1,
    });
    try {
      await vi.advanceTimersByTimeAsync(10_000);
      const times = fake.timesOf(TOOL.getJobEvents);
      const gaps = times.slice(2, 9).map((t, i) => times[i + 3] - t);
      expect(gaps).toEqual([250, 500, 1000, 2000, 2000, 2000, 0]);
      const asked = fake.argsOf(TOOL.getJobEvents).map((a) => a.afterSeq);
      expect(asked.slice(0, 10)).toEqual([0, 2, 4, 4, 4, 4, 4, 4, 4, 6]);
    } finally {
      release();
      vi.useRealTimers();
    }
  });

  it("counts a call that never answers as a timeout, and tries again", async () => {
    setup({ latencyMs: 10_000 });
    const release = followJob({ ...FAST, host, store, jobId: "job-1", callTimeoutMs: 5 });
    try {
      await vi.waitFor(() => expect(store.getState().diagnostics["job-1"]?.failures ?? 0).toBeGreaterThan(1));
      expect(store.getState().diagnostics["job-1"].lastError?.code).toBe("timeout");
    } finally {
      release();
    }
  });
});
