/**
 * Long-poll wake-ups: woken by an append, or ended by time, abort or close; never left behind.
 */
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
