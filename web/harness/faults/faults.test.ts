import fc from "fast-check";
import { applyJobEvents, createJobFold } from "../../../shared/job-reducer.js";
import { TOOL } from "../../../shared/tools.js";
import { faultBatch, formArguments, NO_FAULTS, seededRandom, shuffle, type FaultConfig } from "./faults.js";
import type { JobEvent } from "../../../shared/job-events.js";
import { jobHistory } from "../../../test-kit/job-events.js";

const seqs = (events: readonly JobEvent[]) => events.map((e) => e.seq);

describe("faultBatch", () => {
  const events = jobHistory("j1", { progress: 6 }).slice(0, 4);

  it("passes a batch through unchanged without faults", () => {
    expect(faultBatch({ events, final: false }, [], NO_FAULTS, seededRandom(1))).toEqual({ events, held: [] });
  });

  it("puts N copies of every event in the batch", () => {
    const out = faultBatch({ events, final: false }, [], { ...NO_FAULTS, duplicates: 3 }, seededRandom(1));
    expect(seqs(out.events)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
  });

  it("holds some events back and delivers them all with the next batch", () => {
    const config: FaultConfig = { ...NO_FAULTS, shuffle: true };
    const random = seededRandom(7);
    const first = faultBatch({ events, final: false }, [], config, random);
    expect(first.held.length).toBeGreaterThan(0);
    expect([...seqs(first.events), ...seqs(first.held)].sort()).toEqual([1, 2, 3, 4]);
    const next = jobHistory("j1", { progress: 6 }).slice(4, 6);
    const second = faultBatch({ events: next, final: false }, first.held, config, random);
    for (const e of first.held) expect(second.events).toContain(e);
  });

  it("holds nothing back from a final batch", () => {
    const config: FaultConfig = { ...NO_FAULTS, shuffle: true, duplicates: 2 };
    const carried = events.slice(0, 2);
    const out = faultBatch({ events: events.slice(2), final: true }, carried, config, seededRandom(3));
    expect(out.held).toEqual([]);
    expect(seqs(out.events).sort()).toEqual([1, 2, 3, 3, 4, 4]);
  });

  it("delivers carried events even after shuffling is switched off", () => {
    const out = faultBatch({ events: events.slice(2), final: false }, events.slice(0, 2), NO_FAULTS, seededRandom(3));
    expect(seqs(out.events)).toEqual([1, 2, 3, 4]);
  });

  it("shuffles a copy and keeps every item", () => {
    const input = [1, 2, 3, 4, 5, 6, 7, 8];
    const out = shuffle(input, seededRandom(42));
    expect(out).not.toEqual(input);
    expect(out.slice().sort()).toEqual(input);
    expect(input).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("never changes the reducer's final view, whatever the batches and faults", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        fc.integer(),
        (progressCount, sizes, duplicates, shuffleOn, seed) => {
          const all = jobHistory("job-p", { progress: progressCount });
          const expected = applyJobEvents(createJobFold("job-p"), all);
          const random = seededRandom(seed);
          const config: FaultConfig = { ...NO_FAULTS, duplicates, shuffle: shuffleOn };
          let view = createJobFold("job-p");
          let held: JobEvent[] = [];
          for (let at = 0, i = 0; at < all.length; i++) {
            const events = all.slice(at, at + sizes[i % sizes.length]);
            at += events.length;
            const out = faultBatch({ events, final: at >= all.length }, held, config, random);
            held = out.held;
            view = applyJobEvents(view, out.events);
          }
          expect(held).toEqual([]);
          expect(view).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("formArguments", () => {
  const input = { occasion: "farewell", budgetPerPerson: 60, csv: "name,interests\nAda,tea" };

  it("sends the input as it is without the switch", () => {
    expect(formArguments(TOOL.startBulk, input, NO_FAULTS)).toBe(input);
  });

  it("adds an empty file and reading beside a bulk start's real input, as MCPJam's form does", () => {
    const config = { ...NO_FAULTS, emptyObjects: true };
    expect(formArguments(TOOL.startBulk, input, config)).toEqual({ ...input, file: {}, reading: {} });
    // a real file and reading given stay as they are
    const file = { download_url: "https://files.example/1", file_id: "f1" };
    expect(formArguments(TOOL.startBulk, { ...input, file, reading: { sheet: "Staff" } }, config)).toEqual({
      ...input,
      file,
      reading: { sheet: "Staff" },
    });
    // other tools are sent as they are
    expect(formArguments(TOOL.suggestGifts, { occasion: "birthday" }, config)).toEqual({ occasion: "birthday" });
  });
});
