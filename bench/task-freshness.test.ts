/**
 * The task freshness benchmark: `staleness` on made-up histories (times are numbers here, not
 * clocks), and a smoke run in which a small job is followed as a task to its end.
 */
import { benchTaskFreshness, staleness, type Stamped } from "./task-freshness.js";

const at = (time: number, key: string): Stamped => ({ at: time, key });

describe("staleness", () => {
  const events = [at(0, "created"), at(10, "started"), at(20, "half"), at(30, "done")];

  it("measures each event but the creation to the first read that shows it or a later one", () => {
    const reads = [at(5, "created"), at(12, "created"), at(15, "started"), at(40, "done")];
    expect(staleness(events, reads)).toEqual([5, 20, 10]);
  });

  it("counts a read that came back after an event but showed an older status as not yet showing it", () => {
    const reads = [at(11, "created"), at(21, "started"), at(25, "half"), at(31, "done")];
    expect(staleness(events, reads)).toEqual([11, 5, 1]);
  });

  it("takes events appended together as shown by their common status", () => {
    const batch = [at(0, "created"), at(10, "done"), at(10, "done")];
    expect(staleness(batch, [at(14, "done")])).toEqual([4, 4]);
  });

  it("refuses a read no event explains and an event never read", () => {
    expect(() => staleness(events, [at(50, "elsewhere")])).toThrow(/no event left/);
    expect(() => staleness(events, [at(50, "half")])).toThrow(/event 4 of 4 was never read/);
  });
});

it("tasks: a job followed as a task to its end gives two well-formed rows", async () => {
  const rows = await benchTaskFreshness({ quick: true, smoke: true });
  expect(rows.map((r) => [r.section, r.unit])).toEqual([
    ["tasks", "ms"],
    ["tasks", "ms"],
  ]);
  for (const r of rows) {
    expect(Number.isFinite(r.value)).toBe(true);
    expect(r.baseline !== null && Number.isFinite(r.baseline)).toBe(true);
  }
});
