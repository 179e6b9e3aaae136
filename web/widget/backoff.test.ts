import { backoffDelay, sleep } from "./follow-job.js";

describe("backoffDelay", () => {
  const options = { baseMs: 250, maxMs: 10_000 };

  it("doubles from the base and stops at the cap", () => {
    const top = (n: number) => backoffDelay(n, options, () => 1);
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map(top)).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });

  it("jitters into the upper half of each step", () => {
    expect(backoffDelay(3, options, () => 0)).toBe(1000);
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(3, options);
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});

describe("sleep", () => {
  it("ends at once when aborted", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      let done = false;
      const p = sleep(60_000, controller.signal).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(10);
      expect(done).toBe(false);
      controller.abort();
      await p;
      expect(done).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
