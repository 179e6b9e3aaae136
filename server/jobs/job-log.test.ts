/**
 * The event log: envelopes, one writer per job even under concurrent appends, the lifecycle
 * enforced before anything is stored, and publication only of what was stored.
 */
import type { JobEvent } from "../../shared/job-events.js";
import type { JobEventNotice } from "./job-log.js";
import { JobLog } from "./job-log.js";
import { createMemoryStore } from "./stores/memory.js";
import type { JobStore } from "./store.js";

const owner = { subject: "alice" };
const newJob = (jobId: string) => ({
  jobId,
  owner,
  createdAt: 0,
  input: { occasion: "o", budgetPerPerson: 1, employees: [] },
});
const created = { type: "job.created" as const, payload: { kind: "k", title: "t", stages: [] } };
const started = { type: "job.started", payload: {} } as const;
const progress = (percentage: number) => ({ type: "job.progress", payload: { percentage, stage: "parse" } }) as const;

function setup(store: JobStore = createMemoryStore()) {
  const notices: JobEventNotice[] = [];
  const woken: string[] = [];
  const log = new JobLog({
    store,
    now: () => Date.parse("2026-02-03T04:05:06.789Z"),
    publish: (n) => notices.push(n),
    wake: (id) => woken.push(id),
  });
  return { store, log, notices, woken };
}

describe("JobLog", () => {
  it("gives events their envelope and folds them into the view", async () => {
    const { store, log, notices, woken } = setup();
    const view = await log.create(newJob("j"), created);
    expect(view).toMatchObject({ status: "pending", lastSeq: 1, createdAt: "2026-02-03T04:05:06.789Z" });
    const r = await log.append("j", owner, [started, progress(5)]);
    expect(r).toMatchObject({ ok: true, fold: { status: "running", percentage: 5, lastSeq: 3 } });
    const events = await store.readEvents("j", 0, 10);
    expect(events.map((e) => [e.eventId, e.jobId, e.seq, e.timestamp])).toEqual([
      ["j:1", "j", 1, "2026-02-03T04:05:06.789Z"],
      ["j:2", "j", 2, "2026-02-03T04:05:06.789Z"],
      ["j:3", "j", 3, "2026-02-03T04:05:06.789Z"],
    ]);
    expect(notices.map((n) => [n.event.seq, n.fold.lastSeq, n.owner])).toEqual([
      [1, 1, owner],
      [2, 2, owner],
      [3, 3, owner],
    ]);
    expect(woken).toEqual(["j", "j"]);
  });

  it("keeps seqs gapless and in order when appends race", async () => {
    const { store, log, notices } = setup();
    await log.create(newJob("j"), created);
    await log.append("j", owner, [started]);
    await Promise.all(Array.from({ length: 50 }, (_, i) => log.append("j", owner, [progress(i)])));
    const events = await store.readEvents("j", 0, 100);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 52 }, (_, i) => i + 1));
    expect(notices.map((n) => n.event.seq)).toEqual(events.map((e) => e.seq));
  });

  it("refuses a forbidden event whole, storing and publishing nothing", async () => {
    const { store, log, notices } = setup();
    await log.create(newJob("j"), created);
    const r = await log.append("j", owner, [
      started,
      { type: "job.completed", payload: { summary: "s", resultResourceId: "r" } },
      progress(1),
    ]);
    expect(r).toMatchObject({
      ok: false,
      reason: "job.progress after the job was completed",
      fold: { status: "pending" },
    });
    expect(await store.readEvents("j", 0, 10)).toHaveLength(1);
    expect(notices).toHaveLength(1);
    expect(await log.append("nope", owner, [started])).toMatchObject({ ok: false, reason: "no job nope" });
  });

  it("publishes nothing when the store fails, and reads the view afresh after", async () => {
    const inner = createMemoryStore();
    let failNext = false;
    const store: JobStore = {
      ...inner,
      append: async (...args) => {
        if (failNext) throw new Error("disk full");
        return inner.append(...args);
      },
    };
    const { log, notices } = setup(store);
    await log.create(newJob("j"), created);
    failNext = true;
    await expect(log.append("j", owner, [started])).rejects.toThrow("disk full");
    failNext = false;
    expect(notices).toHaveLength(1);
    expect(await log.append("j", owner, [started])).toMatchObject({ ok: true, fold: { lastSeq: 2 } });
    const events: JobEvent[] = await inner.readEvents("j", 0, 10);
    expect(events.map((e) => e.type)).toEqual(["job.created", "job.started"]);
  });

  it("checks an append again against the log another writer has moved on, instead of failing", async () => {
    const store = createMemoryStore();
    const worker = setup(store); // runs the job, with the fold it last wrote cached
    const web = setup(store); // another instance, where the cancel arrives
    await worker.log.create(newJob("j"), created);
    await worker.log.append("j", owner, [started, progress(5)]);
    await web.log.append("j", owner, [progress(10)]);
    expect(await worker.log.append("j", owner, [progress(20)])).toMatchObject({ ok: true, fold: { lastSeq: 5 } });
    await web.log.append("j", owner, [{ type: "job.canceled", payload: { reason: "Canceled on request." } }]);
    expect(await worker.log.append("j", owner, [progress(30)])).toMatchObject({
      ok: false,
      fold: { status: "canceled", lastSeq: 6 },
    });
    const events = await store.readEvents("j", 0, 10);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events.map((e) => e.type).slice(-1)).toEqual(["job.canceled"]);
  });

  it("checks an append again when another writer moves the log on between its reading and its write", async () => {
    const store = createMemoryStore();
    const worker = setup(store);
    await worker.log.create(newJob("j"), created);
    await worker.log.append("j", owner, [started, progress(5)]);
    // another instance, with no fold of the job: the worker appends just after it read the log
    let raced = false;
    const racing: JobStore = {
      ...store,
      async getJob(jobId) {
        const job = await store.getJob(jobId);
        if (!raced) {
          raced = true;
          await worker.log.append("j", owner, [progress(10)]);
        }
        return job;
      },
    };
    const web = setup(racing);
    const canceled = await web.log.append("j", owner, [
      { type: "job.canceled", payload: { reason: "Canceled on request." } },
    ]);
    expect(raced).toBe(true);
    expect(canceled).toMatchObject({ ok: true, fold: { status: "canceled", lastSeq: 5 } });
    const events = await store.readEvents("j", 0, 10);
    expect(events.map((e) => e.type)).toEqual([
      "job.created",
      "job.started",
      "job.progress",
      "job.progress",
      "job.canceled",
    ]);
  });
});
