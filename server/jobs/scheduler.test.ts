/**
 * The concurrency limit: runs start after the caller has moved on, at most N at once, in order.
 */
import { createScheduler } from "./executor.js";

/** A run that ends when the test says so. */
function controlled() {
  let finish!: () => void;
  const ended = new Promise<void>((r) => (finish = r));
  let started = false;
  return {
    run: async () => {
      started = true;
      await ended;
    },
    finish,
    started: () => started,
  };
}
const turn = () => new Promise((r) => setImmediate(r));

describe("createScheduler", () => {
  it("starts nothing inside enqueue, yet counts the run against the limit from then on", async () => {
    const s = createScheduler(1);
    const a = controlled();
    const b = controlled();
    s.enqueue("a", a.run);
    expect(a.started()).toBe(false);
    s.enqueue("b", b.run);
    await turn();
    expect([a.started(), b.started()]).toEqual([true, false]);
    a.finish();
    await turn();
    await turn();
    expect(b.started()).toBe(true);
    b.finish();
  });

  it("runs at most N at once and the rest in arrival order", async () => {
    const s = createScheduler(2);
    const jobs = ["a", "b", "c", "d"].map((id) => ({ id, ...controlled() }));
    for (const j of jobs) s.enqueue(j.id, j.run);
    await turn();
    expect(jobs.map((j) => j.started())).toEqual([true, true, false, false]);
    jobs[1].finish();
    await turn();
    await turn();
    expect(jobs.map((j) => j.started())).toEqual([true, true, true, false]);
    jobs[0].finish();
    jobs[2].finish();
    await turn();
    await turn();
    expect(jobs[3].started()).toBe(true);
    jobs[3].finish();
  });

  it("takes a waiting job out of the queue", async () => {
    const s = createScheduler(1);
    const a = controlled();
    const b = controlled();
    s.enqueue("a", a.run);
    s.enqueue("b", b.run);
    expect(s.remove("b")).toBe(true);
    expect(s.remove("a")).toBe(false);
    a.finish();
    await turn();
    await turn();
    expect(b.started()).toBe(false);
  });

  it("keeps going after a run throws", async () => {
    const s = createScheduler(1);
    const b = controlled();
    s.enqueue("a", async () => {
      throw new Error("boom");
    });
    s.enqueue("b", b.run);
    await turn();
    await turn();
    await turn();
    expect(b.started()).toBe(true);
    b.finish();
  });

  it("on close, drops the queue and waits for the running jobs", async () => {
    const s = createScheduler(1);
    const a = controlled();
    const b = controlled();
    s.enqueue("a", a.run);
    s.enqueue("b", b.run);
    await turn();
    let closed = false;
    const closing = s.close().then((dropped) => {
      closed = true;
      return dropped;
    });
    await turn();
    expect(closed).toBe(false);
    a.finish();
    expect(await closing).toEqual(["b"]);
    expect(b.started()).toBe(false);
  });
});
