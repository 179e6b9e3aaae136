/**
 * A job's end the store refused is written again a second later, on the service's timers, until the
 * store takes it; the failure is told once; the start-up recovery is tried again with it.
 */
import { Endings } from "./endings.js";
import { interrupted } from "./executor.js";
import { FakeClock } from "../../test-kit/jobs/fake-clock.js";

const owner = { subject: "alice" };

function endingsOn(clock: FakeClock, { refusals = 0, recoveryFailures = 0 }) {
  const written: string[] = [];
  const woken: string[] = [];
  const told: string[] = [];
  let recoveries = 0;
  const endings = new Endings({
    log: {
      append: async (jobId) => {
        if (refusals-- > 0) throw new Error("the store is down");
        written.push(jobId);
        return { ok: true, fold: undefined as never };
      },
    },
    wake: (jobId) => woken.push(jobId),
    report: (context) => () => told.push(context),
    now: clock.now,
    timers: clock,
    recover: async () => {
      if (recoveries++ < recoveryFailures) throw new Error("cannot list the jobs");
    },
  });
  return { endings, written, woken, told, recoveries: () => recoveries };
}

describe("Endings", () => {
  it("writes a refused end again every second until the store takes it, telling the failure once", async () => {
    const clock = new FakeClock(1_000);
    const { endings, written, woken, told } = endingsOn(clock, { refusals: 2 });
    await endings.end("j", owner, interrupted("cut off"));
    expect(endings.unended("j")).toMatchObject({ at: 1_000 });
    expect(woken).toEqual(["j"]);
    await clock.advance(999);
    expect(written).toEqual([]);
    await clock.advance(1); // refused a second time
    expect(written).toEqual([]);
    await clock.advance(1_000);
    expect(written).toEqual(["j"]);
    expect(endings.unended("j")).toBeUndefined();
    expect(told).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });

  it("tries a failed recovery again with the ends, and stops retrying once stopped", async () => {
    const clock = new FakeClock();
    const { endings, recoveries } = endingsOn(clock, { refusals: 1, recoveryFailures: 1 });
    await endings.recover();
    expect(recoveries()).toBe(1);
    await clock.advance(1_000);
    expect(recoveries()).toBe(2);
    await endings.recover(); // done: not run again
    expect(recoveries()).toBe(2);
    await endings.end("j", owner, interrupted("cut off"));
    expect(clock.pending).toBe(1);
    endings.stop();
    expect(clock.pending).toBe(0);
  });
});
