/**
 * The gate on reads: at most so many at once in the process (the rest wait their turn, in order),
 * and a subject past its own bound refused with a sentence, not queued.
 */
import { ok } from "../outcomes.js";
import { createReadGate } from "./read-gate.js";

/** A read that ends when `release` is called. */
function held() {
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  return { release, read: async () => (await done, ok("read")) };
}

describe("createReadGate", () => {
  it("runs two reads at once and starts a third when one ends", async () => {
    const gate = createReadGate({ readsAtOnce: 2, readsPerSubject: 5 });
    const started: string[] = [];
    const reads = ["a", "b", "c"].map((name) => ({ name, ...held() }));
    const results = reads.map((r) =>
      gate("someone", () => {
        started.push(r.name);
        return r.read();
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(["a", "b"]);
    reads[0].release();
    await results[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(["a", "b", "c"]);
    reads[1].release();
    reads[2].release();
    expect(await Promise.all(results)).toEqual([ok("read"), ok("read"), ok("read")]);
  });

  it("refuses a subject's read past its bound, and takes it again once one ends", async () => {
    const gate = createReadGate({ readsAtOnce: 4, readsPerSubject: 1 });
    const first = held();
    const running = gate("anna", first.read);
    expect(await gate("anna", async () => ok("second"))).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    expect(await gate("ben", async () => ok("other"))).toEqual(ok("other"));
    first.release();
    await running;
    expect(await gate("anna", async () => ok("again"))).toEqual(ok("again"));
  });
});
