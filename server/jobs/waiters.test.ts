/**
 * Long-poll wake-ups: woken by an append, or ended by time, abort or close; never left behind;
 * never more waiting at once than the maximum, past which a long poll answers at once.
 */
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { createJobService } from "./job-service.js";
import { createMemoryStore } from "./stores/memory.js";
import { ALICE, testMatch } from "./testing/fixtures.js";
import { createWaiters } from "./waiters.js";

describe("createWaiters", () => {
  it("wakes every waiter of the job, and only of that job", async () => {
    const waiters = createWaiters();
    const a = waiters.arm("j1", 10_000);
    const b = waiters.arm("j1", 10_000);
    const other = waiters.arm("j2", 10_000);
    waiters.wake("j1");
    expect(await a.settled).toBe("event");
    expect(await b.settled).toBe("event");
    expect(waiters.size()).toBe(1);
    other.dispose();
    expect(await other.settled).toBe("timeout");
    expect(waiters.size()).toBe(0);
  });

  it("ends at its timeout", async () => {
    const waiters = createWaiters();
    expect(await waiters.arm("j", 5).settled).toBe("timeout");
    expect(waiters.size()).toBe(0);
  });

  it("ends when its signal aborts, or at once when it already has", async () => {
    const waiters = createWaiters();
    const controller = new AbortController();
    const w = waiters.arm("j", 10_000, controller.signal);
    controller.abort();
    expect(await w.settled).toBe("aborted");
    expect(await waiters.arm("j", 10_000, controller.signal).settled).toBe("aborted");
    expect(waiters.size()).toBe(0);
  });

  it("releases everyone on close, and whoever comes later at once", async () => {
    const waiters = createWaiters();
    const w = waiters.arm("j", 10_000);
    waiters.close();
    expect(await w.settled).toBe("closed");
    expect(await waiters.arm("j", 10_000).settled).toBe("closed");
    expect(waiters.size()).toBe(0);
  });

  it("settles once: a later wake changes nothing", async () => {
    const waiters = createWaiters();
    const w = waiters.arm("j", 10_000);
    w.dispose();
    waiters.wake("j");
    expect(await w.settled).toBe("timeout");
  });
});

describe("createWaiters with a maximum", () => {
  it("lets no more than the maximum wait: one more settles at once as full, and a place frees when one ends", async () => {
    const waiters = createWaiters(2);
    const a = waiters.arm("j1", 10_000);
    const b = waiters.arm("j2", 10_000);
    expect(await waiters.arm("j1", 10_000).settled).toBe("full");
    expect(waiters.size()).toBe(2);
    waiters.wake("j1");
    expect(await a.settled).toBe("event");
    const c = waiters.arm("j3", 10_000);
    expect(waiters.size()).toBe(2);
    b.dispose();
    c.dispose();
    expect(await c.settled).toBe("timeout");
    expect(waiters.size()).toBe(0);
  });
});

describe("long polls past the service's maxWaitingPolls", () => {
  it("answer at once with what there is, while the polls already waiting go on waiting", async () => {
    const service = createJobService({
      store: createMemoryStore(),
      match: testMatch,
      limits: { maxWaitingPolls: 2, maxConcurrentJobs: 1 },
    });
    try {
      // a job that waits behind another, paced to a crawl, so nothing is appended for a while
      const start = async () => {
        const r = await service.start({ csv: employeeCsv(400), occasion: "holiday", budgetPerPerson: 40 }, ALICE, {
          paceMs: 1_000,
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
