/**
 * The long poll of `get_job_events` on its own: the status it answers is never older than the
 * events it answers with, and an append that lands while the first read is under way still wakes it.
 */
import { createGate } from "./access.js";
import { JobLog } from "./job-log.js";
import { createReads } from "./reads.js";
import { Waiters } from "./waiters.js";
import { createMemoryStore } from "./stores/memory.js";
import type { JobStore } from "./store.js";
import { FakeClock } from "../../test-kit/jobs/fake-clock.js";

const owner = { subject: "alice" };
const created = { type: "job.created" as const, payload: { kind: "k", title: "t", stages: [] } };
const started = { type: "job.started", payload: {} } as const;
const canceled = { type: "job.canceled", payload: { reason: "r" } } as const;

async function setup(wrap: (store: JobStore) => JobStore = (s) => s) {
  const store = createMemoryStore();
  // the waiters' timers, to tell that none is left behind
  const clock = new FakeClock();
  const waiters = new Waiters({ timers: clock });
  const log = new JobLog({ store, now: Date.now, publish: () => {}, wake: (id) => waiters.wake(id) });
  await log.create({ jobId: "j", owner, createdAt: Date.now(), input: { occasion: "o", budgetPerPerson: 1 } }, created);
  const wrapped = wrap(store);
  const reads = createReads(
    wrapped,
    createGate(wrapped, () => 0),
    waiters,
    () => undefined,
    () => 0,
  );
  return { store, log, reads, clock };
}

describe("getEvents", () => {
  it("answers the status the events end with when the job's own record was read before them", async () => {
    let stale: Awaited<ReturnType<JobStore["getJob"]>> = undefined;
    // every read of the job's record sees it as it was before its last two events
    const { store, log, reads } = await setup((s) => ({ ...s, getJob: async () => stale }));
    await log.append("j", owner, [started]);
    stale = await store.getJob("j");
    await log.append("j", owner, [canceled]);
    const page = await reads.getEvents({ jobId: "j", afterSeq: 1, waitMs: 0, limit: 500 }, owner);
    expect(page).toMatchObject({ ok: true, value: { status: "canceled", nextSeq: 3, done: true } });
  });

  it("keeps the status of the job's record when it is newer than the events answered", async () => {
    const { log, reads } = await setup();
    await log.append("j", owner, [started, canceled]);
    const page = await reads.getEvents({ jobId: "j", afterSeq: 0, waitMs: 0, limit: 2 }, owner);
    expect(page).toMatchObject({ ok: true, value: { status: "canceled", nextSeq: 2, done: false } });
  });

  it("is woken by an append made while its first read is under way", async () => {
    let appended = false;
    const { log, reads, clock } = await setup((s) => ({
      ...s,
      // the first read finds nothing, and the event is appended (waking waiters) before it answers
      readEvents: async (...args) => {
        const events = await s.readEvents(...args);
        if (!appended) {
          appended = true;
          await log.append("j", owner, [started]);
        }
        return events;
      },
    }));
    const page = await reads.getEvents({ jobId: "j", afterSeq: 1, waitMs: 60_000, limit: 500 }, owner);
    expect(page).toMatchObject({ ok: true, value: { status: "running", nextSeq: 2, done: false } });
    expect(clock.pending).toBe(0);
  });

  it("answers no events to a caller the gate does not let in", async () => {
    const { log, reads, clock } = await setup();
    await log.append("j", owner, [started]);
    const page = await reads.getEvents({ jobId: "j", afterSeq: 0, waitMs: 60_000, limit: 500 }, { subject: "bob" });
    expect(page).toMatchObject({ ok: false, error: { code: "unknown_job" } });
    expect(clock.pending).toBe(0);
  });
});
