/**
 * Long-poll wake-ups: woken by an append, or ended by time, abort or close; never left behind;
 * never more waiting at once than the maximum, past which a long poll answers at once.
 */
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { pauseAtPace } from "../dev-pace.js";
import { createJobService } from "./job-service.js";
import { createMemoryStore } from "./stores/memory.js";
import { ALICE, testMatch } from "../../test-kit/jobs/fixtures.js";
import { FakeClock } from "../../test-kit/jobs/fake-clock.js";
import { Waiters } from "./waiters.js";

/** Waiters on a fake clock, whose pending timers tell whether a waiter is left behind. */
function waitersOn(max?: number) {
  const clock = new FakeClock();
  return { clock, waiters: new Waiters({ max, timers: clock }) };
}

describe("Waiters", () => {
  it("wakes every waiter of the job, and only of that job", async () => {
    const { clock, waiters } = waitersOn();
    const a = waiters.arm("j1", 10_000);
    const b = waiters.arm("j1", 10_000);
    const other = waiters.arm("j2", 10_000);
    waiters.wake("j1");
    expect(await a.settled).toBe("event");
    expect(await b.settled).toBe("event");
    expect(clock.pending).toBe(1);
    other.dispose();
    expect(await other.settled).toBe("timeout");
    expect(clock.pending).toBe(0);
  });

  it("ends at its timeout, not before", async () => {
    const { clock, waiters } = waitersOn();
    const settled: string[] = [];
    void waiters.arm("j", 5_000).settled.then((reason) => settled.push(reason));
    await clock.advance(4_999);
    expect(settled).toEqual([]);
    await clock.advance(1);
    expect(settled).toEqual(["timeout"]);
    expect(clock.pending).toBe(0);
  });

  it("ends when its signal aborts, or at once when it already has", async () => {
    const { clock, waiters } = waitersOn();
    const controller = new AbortController();
    const w = waiters.arm("j", 10_000, controller.signal);
    controller.abort();
    expect(await w.settled).toBe("aborted");
    expect(await waiters.arm("j", 10_000, controller.signal).settled).toBe("aborted");
    expect(clock.pending).toBe(0);
  });

  it("releases everyone on close, and whoever comes later at once", async () => {
    const { clock, waiters } = waitersOn();
    const w = waiters.arm("j", 10_000);
    waiters.close();
    expect(await w.settled).toBe("closed");
    expect(await waiters.arm("j", 10_000).settled).toBe("closed");
    expect(clock.pending).toBe(0);
  });

  it("settles once: a later wake changes nothing", async () => {
    const { waiters } = waitersOn();
    const w = waiters.arm("j", 10_000);
    w.dispose();
    waiters.wake("j");
    expect(await w.settled).toBe("timeout");
  });
});

describe("Waiters with a maximum", () => {
  it("lets no more than the maximum wait: one more settles at once as full, and a place frees when one ends", async () => {
    const { clock, waiters } = waitersOn(2);
    const a = waiters.arm("j1", 10_000);
    const b = waiters.arm("j2", 10_000);
    expect(await waiters.arm("j1", 10_000).settled).toBe("full");
    waiters.wake("j1");
    expect(await a.settled).toBe("event");
    const c = waiters.arm("j3", 10_000);
    // a, woken, made room for c, and no more
    expect(await waiters.arm("j4", 10_000).settled).toBe("full");
    b.dispose();
    c.dispose();
    expect(await c.settled).toBe("timeout");
    // both places free again
    const d = waiters.arm("j5", 10_000);
    const e = waiters.arm("j6", 10_000);
    await clock.advance(10_000);
    expect([await d.settled, await e.settled]).toEqual(["timeout", "timeout"]);
  });
});

describe("long polls past the service's maxWaitingPolls", () => {
  it("answer at once with what there is, while the polls already waiting go on waiting", async () => {
    const service = createJobService({
      store: createMemoryStore(),
      match: testMatch,
      limits: { maxWaitingPolls: 2, maxConcurrentJobs: 1 },
      beforeSlice: pauseAtPace,
    });
    try {
      // a job that waits behind another, paced to a crawl, so nothing is appended for a while
      const start = async () => {
        const r = await service.start({ csv: employeeCsv(400), occasion: "holiday", budgetPerPerson: 40 }, ALICE, {
          runOptions: { paceMs: 1_000 },
        });
        if (!r.ok) throw new Error(r.error.message);
        return r.value.jobId;
      };
      await start();
      const jobId = await start();
      const poll = () => service.getEvents({ jobId, afterSeq: 1, waitMs: 20_000, limit: 100 }, ALICE);
      const settled: string[] = [];
      const first = poll().finally(() => settled.push("first"));
      const second = poll().finally(() => settled.push("second"));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const third = await poll();
      expect(third).toMatchObject({
        ok: true,
        value: { jobId, status: "pending", events: [], nextSeq: 1, done: false },
      });
      expect(settled).toEqual([]);
      expect((await service.cancel({ jobId }, ALICE)).ok).toBe(true);
      for (const r of [await first, await second]) {
        expect(r.ok && r.value.events.map((e) => e.type)).toEqual(["job.canceled"]);
      }
    } finally {
      await service.close();
    }
  });
});
