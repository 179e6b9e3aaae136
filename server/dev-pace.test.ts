/**
 * The development pace on its own: what a start's `_meta` may ask for, the pause each slice then
 * takes and its stop on an abort, and the key the harness sends being the one read here.
 */
import { describe, expect, it } from "vitest";
import { PACE_META_KEY as HARNESS_KEY } from "../web/harness/session.js";
import { PACE_META_KEY, paceFromMeta, pauseAtPace } from "./dev-pace.js";

describe("the development pace", () => {
  it("is read from the key the harness sends", () => {
    expect(HARNESS_KEY).toBe(PACE_META_KEY);
  });

  it("takes a positive number of ms, at most 3 s, and nothing else", () => {
    expect(paceFromMeta({ [PACE_META_KEY]: 500 })).toEqual({ paceMs: 500 });
    expect(paceFromMeta({ [PACE_META_KEY]: 60_000 })).toEqual({ paceMs: 3_000 });
    for (const asked of [0, -5, Number.NaN, "500", null, undefined]) {
      expect(paceFromMeta({ [PACE_META_KEY]: asked })).toBeUndefined();
    }
    expect(paceFromMeta({ "openai/locale": "ko-KR" })).toBeUndefined();
  });

  it("pauses each slice that long, none without a pace, and stops on an abort", async () => {
    const signal = new AbortController().signal;
    const timed = async (options: Record<string, unknown>) => {
      const from = performance.now();
      await pauseAtPace(options, signal);
      return performance.now() - from;
    };
    expect(await timed({ paceMs: 60 })).toBeGreaterThanOrEqual(55);
    expect(await timed({})).toBeLessThan(20);
    expect(await timed({ paceMs: "60" })).toBeLessThan(20);
    const abort = new AbortController();
    const paused = pauseAtPace({ paceMs: 3_000 }, abort.signal);
    abort.abort();
    await expect(paused).rejects.toThrow(/abort/i);
  });
});
