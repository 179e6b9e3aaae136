/**
 * Development only (GIFTGENIUS_DEV=1): a request may slow its job down, to watch it (the harness's
 * Pace). The app reads the pause a start asks for in `_meta["giftgenius/paceMs"]` into the job's
 * run options; every process that runs jobs (main.ts, worker.ts) pauses that long before each
 * slice of work. Only those roots plug it in; the jobs and the tools never know of it.
 */
import { setTimeout as pause } from "node:timers/promises";
import type { RunOptions, SliceHook } from "./jobs/executor.js";

/** The request `_meta` key a developer's host (the harness) sets to slow a job down. */
export const PACE_META_KEY = "giftgenius/paceMs";

/**
 * The slowest pace allowed: a pause of this many ms between slices of work. A small list is a
 * few slices (the harness's 25-row sample is four), so watching it for seconds takes pauses of seconds.
 */
const MAX_PACE_MS = 3_000;

/** A sane pause, at most the slowest pace; undefined for anything else. */
const paceIn = (value: unknown): number | undefined =>
  typeof value === "number" && value > 0 ? Math.min(value, MAX_PACE_MS) : undefined;

/** The run options of a start whose request asks for a pace; none otherwise. */
export function paceFromMeta(requestMeta: Record<string, unknown>): RunOptions | undefined {
  const paceMs = paceIn(requestMeta[PACE_META_KEY]);
  return paceMs === undefined ? undefined : { paceMs };
}

/** Before each slice, the pause the job was started with, if any; an abort of `signal` rejects it. */
export const pauseAtPace: SliceHook = async (options, signal) => {
  const paceMs = paceIn(options.paceMs);
  if (paceMs !== undefined) await pause(paceMs, undefined, { signal });
};
