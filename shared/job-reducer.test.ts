/**
 * The reducer's laws, checked over generated histories (fast-check): idempotence, order
 * insensitivity under any reordering and duplication, monotone progress and terminal states,
 * scoping by jobId, bounded size; then plain examples of stage states, labels and status.
 */
import fc from "fast-check";
import { JobEventSchema, isTerminalEvent, type JobEvent, type Stage } from "./job-events.js";
import { applyJobEvent, applyJobEvents, createJobFold, toJobView, type JobFold } from "./job-reducer.js";
import { isFinished, JobViewSchema, type JobStatus } from "./job-view.js";
import { envelope, jobEvent, jobHistory } from "../test-kit/job-events.js";

const JOB = "job-1";
/** Runs per property; each run replays one history in one random delivery order. */
const RUNS = 2000;
type Ending = "completed" | "failed" | "canceled" | "running";
type Spec = {
  plan: Stage[];
  extra: string[];
  steps: { advance: boolean; tenths: number; eta: number | null; processed: number }[];
  endings: Ending[];
  started: boolean;
};

/** Builds a gapless, seq-ordered history with unique eventIds from a generated spec. */
function buildHistory(spec: Spec, jobId = JOB): JobEvent[] {
  const events: JobEvent[] = [];
  const next = () => events.length + 1;
  const stageIds = [...spec.plan.map((s) => s.id), ...spec.extra];
  events.push(jobEvent(jobId, next(), "job.created", { stages: spec.plan }));
  if (spec.started) events.push(jobEvent(jobId, next(), "job.started"));
  const rising = spec.steps.map((s) => s.tenths).sort((a, b) => a - b);
  let at = 0;
  spec.steps.forEach((step, i) => {
    if (step.advance) at = Math.min(at + 1, stageIds.length - 1);
    const stage = stageIds[at];
    events.push(
      jobEvent(jobId, next(), "job.progress", {
        percentage: rising[i] / 10,
        stage,
        stageLabel: `Stage ${stage}`,
        message: `step ${i}`,
        processed: step.processed,
        total: 500,
        ...(step.eta === null ? {} : { etaSeconds: step.eta }),
      }),
    );
  });
  for (const ending of spec.endings) {
    if (ending === "completed") events.push(jobEvent(jobId, next(), "job.completed"));
    if (ending === "failed") events.push(jobEvent(jobId, next(), "job.failed", { code: "internal" }));
    if (ending === "canceled") events.push(jobEvent(jobId, next(), "job.canceled"));
  }
  return events;
}

const POOL = ["parse", "validate", "match", "rank", "price", "write"];
const arbPlan = fc
  .uniqueArray(fc.constantFrom(...POOL), { minLength: 1, maxLength: 5 })
  .map((ids) => ids.map((id): Stage => ({ id, label: `Plan ${id}` })));
const arbSteps = fc.array(
  fc.record({
    advance: fc.boolean(),
    tenths: fc.integer({ min: 0, max: 1000 }),
    eta: fc.option(fc.nat(900)),
    processed: fc.nat(500),
  }),
  { maxLength: 30 },
);
const arbSpecBase = fc.record({
  plan: arbPlan,
  extra: fc.uniqueArray(fc.constantFrom("audit", "notify"), { maxLength: 2 }),
  steps: arbSteps,
  started: fc.boolean(),
});
/** A realistic history: at most one terminal event, last. */
const arbHistory = fc
  .record({ base: arbSpecBase, ending: fc.constantFrom<Ending>("completed", "failed", "canceled", "running") })
  .map(({ base, ending }) => buildHistory({ ...base, endings: ending === "running" ? [] : [ending] }));
/** A buggy stream: two different terminal events. */
const arbBuggyHistory = fc
  .record({
    base: arbSpecBase,
    endings: fc.shuffledSubarray<Ending>(["completed", "failed", "canceled"], { minLength: 2, maxLength: 2 }),
  })
  .map(({ base, endings }) => buildHistory({ ...base, endings }));
const arbAnyHistory = fc.oneof(arbHistory, arbBuggyHistory);

/** Any delivery of a history: every event at least once, some repeated (as copies), in any order. */
const deliveryOf = (history: JobEvent[]) =>
  fc.array(fc.nat({ max: history.length - 1 }), { maxLength: history.length }).chain((dups) => {
    const all = [...history, ...dups.map((i) => structuredClone(history[i]))];
    return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
  });
const arbCase = (histories: fc.Arbitrary<JobEvent[]>) =>
  histories.chain((history) => deliveryOf(history).map((delivery) => ({ history, delivery })));

const statusOf = (type: JobEvent["type"]): JobStatus =>
  type === "job.completed" ? "completed" : type === "job.failed" ? "failed" : "canceled";

/** What the view must say, computed straight from the set of events (independent of the reducer). */
function expected(history: JobEvent[]) {
  const progress = history.flatMap((e) => (e.type === "job.progress" ? [e] : []));
  const latest = progress.reduce<(typeof progress)[number] | null>(
    (a, e) => (a === null || e.seq > a.seq ? e : a),
    null,
  );
  const firstTerminal = history.filter(isTerminalEvent).sort((a, b) => a.seq - b.seq)[0];
  const created = history.find((e) => e.type === "job.created");
  const planIds = created?.type === "job.created" ? created.payload.stages.map((s) => s.id) : [];
  const extraIds = [...progress]
    .sort((a, b) => a.seq - b.seq)
    .map((e) => e.payload.stage)
    .filter((id, i, all) => !planIds.includes(id) && all.indexOf(id) === i);
  const anyCompleted = history.some((e) => e.type === "job.completed");
  const status: JobStatus = firstTerminal
    ? statusOf(firstTerminal.type)
    : history.some((e) => e.type === "job.started") || latest
      ? "running"
      : "pending";
  const stageIds = [...planIds, ...extraIds];
  // the stage it is in, or ended in; a failure or cancel before any progress ends in the first
  const at = latest ? stageIds.indexOf(latest.payload.stage) : status === "failed" || status === "canceled" ? 0 : -1;
  const there = { pending: "active", running: "active", completed: "done", failed: "failed", canceled: "stopped" };
  return {
    percentage: Math.max(0, ...progress.map((e) => e.payload.percentage), anyCompleted ? 100 : 0),
    status,
    stage: latest?.payload.stage ?? null,
    etaSeconds: latest?.payload.etaSeconds ?? null,
    lastSeq: Math.max(...history.map((e) => e.seq)),
    stageIds,
    stageStates: stageIds.map((_, i) =>
      status === "completed" || i < at ? "done" : i === at ? there[status] : "pending",
    ),
  };
}

describe("applyJobEvent laws (generated histories)", () => {
  it("generates histories that satisfy the event contract", () => {
    fc.assert(
      fc.property(arbAnyHistory, (history) => {
        history.forEach((e, i) => {
          expect(JobEventSchema.parse(e)).toEqual(e);
          expect(e.seq).toBe(i + 1);
        });
        expect(new Set(history.map((e) => e.eventId)).size).toBe(history.length);
      }),
      { numRuns: 200 },
    );
  });

  it("is idempotent: re-applying any event already applied returns the same object", () => {
    fc.assert(
      fc.property(arbCase(arbAnyHistory), ({ delivery }) => {
        let v = createJobFold(JOB);
        delivery.forEach((e, i) => {
          v = applyJobEvent(v, e);
          for (let j = 0; j <= i; j++) expect(applyJobEvent(v, delivery[j])).toBe(v);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it("is order-insensitive: any permutation with duplicates ends deep-equal to the history in order", () => {
    fc.assert(
      fc.property(arbCase(arbAnyHistory), ({ history, delivery }) => {
        const inOrder = applyJobEvents(createJobFold(JOB), history);
        expect(applyJobEvents(createJobFold(JOB), delivery)).toEqual(inOrder);
        const want = expected(history);
        expect(inOrder).toMatchObject({
          percentage: want.percentage,
          status: want.status,
          stage: want.stage,
          etaSeconds: want.etaSeconds,
          lastSeq: want.lastSeq,
        });
        expect(inOrder.stages.map((s) => s.id)).toEqual(want.stageIds);
        expect(inOrder.stages.map((s) => s.state)).toEqual(want.stageStates);
      }),
      { numRuns: RUNS },
    );
  });

  it("is monotone: percentage never falls, terminal states are kept, the lowest terminal seq wins, no stage stays active after the end", () => {
    fc.assert(
      fc.property(arbCase(arbAnyHistory), ({ history, delivery }) => {
        let v = createJobFold(JOB);
        let sawCompleted = false;
        for (const e of delivery) {
          const next = applyJobEvent(v, e);
          sawCompleted ||= e.type === "job.completed";
          expect(next.percentage).toBeGreaterThanOrEqual(v.percentage);
          if (isFinished(next.status)) expect(next.stages.filter((s) => s.state === "active")).toEqual([]);
          if (isFinished(v.status)) {
            expect(isFinished(next.status)).toBe(true);
            if (next.status !== v.status) expect(next.terminalSeq).toBeLessThan(v.terminalSeq);
          }
          if (v.status === "running") expect(next.status).not.toBe("pending");
          if (next.status === "completed" || sawCompleted) expect(next.percentage).toBe(100);
          v = next;
        }
        const first = history.filter(isTerminalEvent)[0];
        if (first) expect([v.status, v.terminalSeq]).toEqual([statusOf(first.type), first.seq]);
        else expect(isFinished(v.status)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it("settles a buggy stream with two terminal events on the lower seq, whatever the arrival order", () => {
    fc.assert(
      fc.property(arbCase(arbBuggyHistory), ({ history, delivery }) => {
        const [first, second] = history.filter(isTerminalEvent);
        const v = applyJobEvents(createJobFold(JOB), delivery);
        expect(v.status).toBe(statusOf(first.type));
        expect(v.finishedAt).toBe(first.timestamp);
        if (first.type === "job.completed" || second.type === "job.completed") expect(v.percentage).toBe(100);
        if (first.type === "job.failed") expect(v.error?.code).toBe("internal");
        else expect(v.error).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it("is scoped: events for another job return the same object", () => {
    const arbTwo = fc.tuple(arbAnyHistory, arbSpecBase).chain(([mine, otherSpec]) => {
      const theirs = buildHistory({ ...otherSpec, endings: ["completed"] }, "job-2");
      return deliveryOf([...mine, ...theirs]).map((delivery) => ({ mine, delivery }));
    });
    fc.assert(
      fc.property(arbTwo, ({ mine, delivery }) => {
        let v = createJobFold(JOB);
        for (const e of delivery) {
          const next = applyJobEvent(v, e);
          if (e.jobId !== JOB) expect(next).toBe(v);
          v = next;
        }
        expect(v).toEqual(applyJobEvents(createJobFold(JOB), mine));
      }),
      { numRuns: RUNS },
    );
  });

  it("keeps its size bounded by the stages, not the number of events", () => {
    const arbPlanAndCounts = fc.tuple(arbPlan, fc.integer({ min: 20, max: 60 }), fc.integer({ min: 2000, max: 5000 }));
    fc.assert(
      fc.property(arbPlanAndCounts, ([plan, few, many]) => {
        const size = (n: number) => JSON.stringify(applyJobEvents(createJobFold(JOB), manyProgress(plan, n))).length;
        expect(Math.abs(size(many) - size(few))).toBeLessThanOrEqual(48);
      }),
      { numRuns: 100 },
    );
  });
});

/** `created` then `n` progress events spread evenly over the plan, ending at 100 %. */
const manyProgress = (plan: Stage[], n: number): JobEvent[] =>
  jobHistory(JOB, { stages: plan, started: false, progress: n, top: 100, ending: "running" });

describe("bounded memory", () => {
  it("is about the same JSON size after 100 and after 100,000 progress events over the same stages", () => {
    const plan = ["parse", "match", "rank", "write"].map((id) => ({ id, label: id }));
    const small = applyJobEvents(createJobFold(JOB), manyProgress(plan, 100));
    const large = applyJobEvents(createJobFold(JOB), manyProgress(plan, 100_000));
    const [a, b] = [JSON.stringify(small).length, JSON.stringify(large).length];
    expect(Math.abs(a - b)).toBeLessThanOrEqual(24); // only the digits of seq/processed/total grow
    expect(large.seen).toHaveLength(4);
    expect(large.stages).toHaveLength(4);
  });
});

/** Events by hand for the examples below, each at its seq. */
const at = (seq: number) => envelope(JOB, seq);
const created = (seq: number, ids: string[]) =>
  jobEvent(JOB, seq, "job.created", { title: "Team gifts", stages: ids.map((id) => ({ id, label: `Plan ${id}` })) });
const started = (seq: number) => jobEvent(JOB, seq, "job.started");
const progress = (
  seq: number,
  stage: string,
  percentage: number,
  extra: { stageLabel?: string; etaSeconds?: number; message?: string } = {},
) => jobEvent(JOB, seq, "job.progress", { percentage, stage, ...extra });
const completed = (seq: number) =>
  jobEvent(JOB, seq, "job.completed", {
    summary: "3 people",
    resultResourceId: "gifts://jobs/job-1/result",
    resultCount: 3,
  });
const failed = (seq: number) =>
  jobEvent(JOB, seq, "job.failed", {
    code: "internal",
    message: "Catalog unavailable",
    hint: "Start again",
    retryable: true,
  });
const canceled = (seq: number) => jobEvent(JOB, seq, "job.canceled", { reason: "user" });
const run = (...events: JobEvent[]): JobFold => applyJobEvents(createJobFold(JOB), events);
const states = (v: JobFold) => v.stages.map((s) => `${s.id}:${s.state}`);

describe("applyJobEvent examples", () => {
  it("starts pending, becomes running on started or on any progress", () => {
    expect(createJobFold(JOB).status).toBe("pending");
    expect(run(created(1, ["a"])).status).toBe("pending");
    expect(run(created(1, ["a"]), started(2)).status).toBe("running");
    expect(run(created(1, ["a"]), progress(3, "a", 10)).status).toBe("running");
  });

  it("marks stages before the current one done, the current active and the rest pending", () => {
    const v = run(
      created(1, ["parse", "match", "write"]),
      started(2),
      progress(3, "parse", 10),
      progress(4, "match", 40),
    );
    expect(states(v)).toEqual(["parse:done", "match:active", "write:pending"]);
    expect(v.stages.map((s) => s.label)).toEqual(["Plan parse", "Plan match", "Plan write"]);
    expect(states(run(created(1, ["parse", "match", "write"])))).toEqual([
      "parse:pending",
      "match:pending",
      "write:pending",
    ]);
  });

  it("marks every stage done once completed, even stages never reached", () => {
    const v = run(created(1, ["parse", "match", "write"]), progress(2, "parse", 10), completed(3));
    expect(states(v)).toEqual(["parse:done", "match:done", "write:done"]);
    expect(v).toMatchObject({ status: "completed", percentage: 100, summary: "3 people", resultCount: 3 });
  });

  it("marks the stage a failed job was in failed, the ones before done and the ones after pending", () => {
    const events = [
      created(1, ["parse", "match", "write"]),
      started(2),
      progress(3, "parse", 10),
      progress(4, "match", 40),
      failed(5),
    ];
    const v = run(...events);
    expect(states(v)).toEqual(["parse:done", "match:failed", "write:pending"]);
    expect(v).toEqual(run(...events.reverse()));
  });

  it("marks the stage a canceled job was in stopped, the ones before done and the ones after pending", () => {
    const events = [
      created(1, ["parse", "match", "write"]),
      started(2),
      progress(3, "parse", 10),
      progress(4, "match", 40),
      canceled(5),
    ];
    const v = run(...events);
    expect(states(v)).toEqual(["parse:done", "match:stopped", "write:pending"]);
    expect(v).toEqual(run(...events.reverse()));
  });

  it("ends a job that failed or was canceled before any progress in its first stage", () => {
    expect(states(run(created(1, ["parse", "match"]), started(2), failed(3)))).toEqual([
      "parse:failed",
      "match:pending",
    ]);
    expect(states(run(created(1, ["parse", "match"]), canceled(2)))).toEqual(["parse:stopped", "match:pending"]);
  });

  it("settles the stages on the winning terminal event, and re-derives them when the outcome changes", () => {
    const base = [created(1, ["a", "b"]), progress(2, "a", 20), progress(3, "b", 60)];
    const canceledFirst = run(...base, canceled(4));
    expect(states(canceledFirst)).toEqual(["a:done", "b:stopped"]);
    // a lower-seq failure arriving late wins and turns the stopped stage into a failed one
    const failedEarlier = applyJobEvent(run(...base.slice(0, 2), canceled(4)), failed(3));
    expect(states(failedEarlier)).toEqual(["a:failed", "b:pending"]);
    expect(failedEarlier).toEqual(run(failed(3), canceled(4), ...base.slice(0, 2)));
    // a late completion after a failure does not win: the failed stage stays failed
    expect(states(applyJobEvent(run(...base, failed(4)), completed(5)))).toEqual(["a:done", "b:failed"]);
  });

  it("re-derives the stages when the job ends, not when it starts, and keeps them for later events on the same stage", () => {
    const running = run(created(1, ["a", "b"]), progress(2, "a", 20));
    const ended = applyJobEvent(running, failed(3));
    expect(ended.stages).not.toBe(running.stages);
    expect(states(ended)).toEqual(["a:failed", "b:pending"]);
    const later = applyJobEvent(ended, progress(4, "a", 30));
    expect(later.stages).toBe(ended.stages);
    // starting changes no stage state: pending and running name the current stage alike
    const waiting = run(created(1, ["a", "b"]));
    expect(applyJobEvent(waiting, started(2)).stages).toBe(waiting.stages);
  });

  it("appends stages seen only in progress events by the lowest seq naming them, with that event's label", () => {
    const v = run(
      progress(6, "notify", 90, { stageLabel: "Notify late" }),
      created(1, ["parse"]),
      progress(5, "audit", 80),
      progress(4, "notify", 70, { stageLabel: "Notify" }),
    );
    expect(v.stages.map((s) => [s.id, s.label])).toEqual([
      ["parse", "Plan parse"],
      ["notify", "Notify"],
      ["audit", "audit"],
    ]);
    expect(states(v)).toEqual(["parse:done", "notify:active", "audit:pending"]);
  });

  it("takes stage, label and ETA from the highest-seq progress, whatever arrives last", () => {
    const v = run(
      created(1, ["a", "b"]),
      progress(3, "b", 60, { stageLabel: "Bee", etaSeconds: 5 }),
      progress(2, "a", 30, { etaSeconds: 50 }),
    );
    expect(v).toMatchObject({ stage: "b", stageLabel: "Bee", etaSeconds: 5, percentage: 60, lastSeq: 3 });
    expect(v.updatedAt).toBe(at(3).timestamp);
  });

  it("keeps the highest percentage even when a later seq reports less", () => {
    expect(run(progress(2, "a", 70), progress(3, "a", 40)).percentage).toBe(70);
  });

  it("carries the failure and the cancel reason", () => {
    expect(run(created(1, ["a"]), failed(2)).error).toEqual({
      code: "internal",
      message: "Catalog unavailable",
      hint: "Start again",
      retryable: true,
    });
    expect(run(created(1, ["a"]), canceled(2))).toMatchObject({
      status: "canceled",
      cancelReason: "user",
      error: null,
    });
  });

  it("lets the lower-seq terminal event win, and still counts a losing completion as 100 %", () => {
    const late = run(created(1, ["a"]), progress(2, "a", 20), failed(3), completed(4));
    const early = run(completed(4), created(1, ["a"]), progress(2, "a", 20), failed(3));
    expect(late).toEqual(early);
    expect(late).toMatchObject({
      status: "failed",
      percentage: 100,
      summary: null,
      resultResourceId: null,
      terminalSeq: 3,
    });
  });

  it("returns the same object for a duplicate and for another job's event", () => {
    const v = run(created(1, ["a"]), progress(2, "a", 20));
    expect(applyJobEvent(v, progress(2, "a", 20))).toBe(v);
    expect(applyJobEvent(v, { ...progress(3, "a", 90), jobId: "job-2" })).toBe(v);
    expect(applyJobEvents(v, [])).toBe(v);
  });

  it("clears the optional progress fields a newer event on the same stage leaves out, as in any other order", () => {
    const first = progress(3, "a", 30, { stageLabel: "Aye", etaSeconds: 5 });
    const second = progress(4, "a", 40);
    const v = run(created(1, ["a", "b"]), started(2), first, second);
    expect(v).toMatchObject({
      stage: "a",
      stageLabel: null,
      etaSeconds: null,
      percentage: 40,
      lastSeq: 4,
      progressSeq: 4,
      status: "running",
    });
    expect(v.updatedAt).toBe(at(4).timestamp);
    expect(v).toEqual(run(second, first, started(2), created(1, ["a", "b"])));
  });

  it("reuses the stages array when a progress event stays on the same stage", () => {
    const v = run(created(1, ["a", "b"]), progress(2, "a", 20));
    const next = applyJobEvent(v, progress(3, "a", 30));
    expect(next).not.toBe(v);
    expect(next.stages).toBe(v.stages);
    expect(next.seen).toBe(v.seen);
  });
});

describe("toJobView", () => {
  it("keeps exactly the public view's fields: none of the reducer's bookkeeping goes out", () => {
    const fold = run(created(1, ["a", "b"]), started(2), progress(3, "a", 30), failed(4));
    const view = toJobView(fold);
    expect(Object.keys(view).sort()).toEqual(Object.keys(JobViewSchema.shape).sort());
    for (const key of ["lastSeq", "plan", "seen", "createdSeq", "startedSeq", "progressSeq", "terminalSeq"]) {
      expect(view).not.toHaveProperty(key);
    }
    expect(JobViewSchema.parse(view)).toEqual(view);
    expect(view).toMatchObject({ status: "failed", percentage: 30, error: { code: "internal", retryable: true } });
  });

  it("shows no stage words or ETA once the job has ended, in any order of its events", () => {
    const events = [
      created(1, ["a", "b"]),
      started(2),
      progress(3, "b", 90, { message: "working", etaSeconds: 12 }),
      completed(4),
    ];
    expect(toJobView(run(...events.slice(0, 3)))).toMatchObject({ message: "working", etaSeconds: 12 });
    for (const order of [events, [...events].reverse()]) {
      expect(toJobView(run(...order))).toMatchObject({ status: "completed", message: null, etaSeconds: null });
    }
  });
});
