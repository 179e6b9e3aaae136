/**
 * Development only: a start may slow its job down to watch it (`_meta["giftgenius/paceMs"]`); the
 * processes that run jobs pause that long before each slice. Only the entry points plug it in.
 */
import { setTimeout as pause } from "node:timers/promises";
import type { RunOptions, SliceHook } from "./jobs/executor.js";

export const PACE_META_KEY = "giftgenius/paceMs";

/** A small list is a few slices (the harness's sample is four), so watching it takes pauses of seconds. */
const MAX_PACE_MS = 3_000;

const paceIn = (value: unknown): number | undefined =>
  typeof value === "number" && value > 0 ? Math.min(value, MAX_PACE_MS) : undefined;

export function paceFromMeta(requestMeta: Record<string, unknown>): RunOptions | undefined {
  const paceMs = paceIn(requestMeta[PACE_META_KEY]);
  return paceMs === undefined ? undefined : { paceMs };
}

/** An abort of `signal` rejects the pause. */
export const pauseAtPace: SliceHook = async (options, signal) => {
  const paceMs = paceIn(options.paceMs);
  if (paceMs !== undefined) await pause(paceMs, undefined, { signal });
};
