/**
 * Fault injection for `get_job_events` replies, as a pure function of one batch: copy every event
 * N times, shuffle, and hold some events back to deliver them with a later batch. The widget's
 * reducer must end in the same view whatever this does, which is what the harness lets you watch.
 * Beside them, a lost `put_file_chunk` reply, for watching an upload retry and resume, a host
 * that runs one call at a time, for watching Cancel get through, and two of MCPJam's quirks: tool
 * replies whose `isError` says false whatever the server said, and a form that sends empty objects
 * beside a bulk start's real input.
 */
import type { JobEvent } from "../../../shared/job-events.js";
import { TOOL } from "../../../shared/tools.js";

export type FaultConfig = {
  /** Copies of each event in a batch; 1 means no duplicates. */
  duplicates: number;
  /** Shuffle within the batch and carry some events over to a later batch. */
  shuffle: boolean;
  /** Extra milliseconds before the widget gets its reply. */
  delayMs: number;
  /** Answer the next `get_job_events` call with a network error (one shot). */
  dropNext: boolean;
  /** Lose the reply to the next `put_file_chunk` call, after the server kept the chunk (one shot). */
  dropNextChunk: boolean;
  /** Refuse a widget's call while another of its calls is in flight, as MCPJam does. */
  oneCallAtATime: boolean;
  /** The widget's tool replies say `isError: false` even when the server said true, as MCPJam's do. */
  dropIsError: boolean;
  /** The form sends `file: {}` and `reading: {}` beside a bulk start's real input, as MCPJam's does. */
  emptyObjects: boolean;
};
/** The one-shot faults, each switched off once it fired. */
export type OneShotFault = "dropNext" | "dropNextChunk";

export const NO_FAULTS: FaultConfig = {
  duplicates: 1,
  shuffle: false,
  delayMs: 0,
  dropNext: false,
  dropNextChunk: false,
  oneCallAtATime: false,
  dropIsError: false,
  emptyObjects: false,
};

/**
 * What the host's form sends for `name(args)`: with `emptyObjects`, a bulk start gets an empty
 * `file` and `reading` beside its real input (a real `file` given stays as it is).
 */
export const formArguments = (name: string, args: Record<string, unknown>, config: FaultConfig) =>
  config.emptyObjects && name === TOOL.startBulk ? { file: {}, reading: {}, ...args } : args;

/** Share of a batch's events held back for a later batch when shuffling. */
const HOLD_BACK_SHARE = 0.35;

export type BatchInput = {
  events: readonly JobEvent[];
  /** The last batch the widget will ask for (the reply says `done`, or carries a terminal event). */
  final: boolean;
};
export type BatchOutput = { events: JobEvent[]; held: JobEvent[] };

/**
 * Applies duplicates and shuffling to one batch. `held` are the events carried over from earlier
 * batches of the same job; they are always delivered in this batch, so none waits more than one
 * round, and a final batch delivers everything. `random` returns [0, 1), like Math.random.
 */
export function faultBatch(
  batch: BatchInput,
  held: readonly JobEvent[],
  config: FaultConfig,
  random: () => number,
): BatchOutput {
  const copies = Math.max(1, Math.floor(config.duplicates));
  const fresh = batch.events.flatMap((e) => Array.from({ length: copies }, () => e));
  if (!config.shuffle) return { events: [...held, ...fresh], held: [] };
  const keep: JobEvent[] = [];
  const hold: JobEvent[] = [];
  for (const e of fresh) (!batch.final && random() < HOLD_BACK_SHARE ? hold : keep).push(e);
  return { events: shuffle([...held, ...keep], random), held: hold };
}

/** Fisher–Yates on a copy. */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** Seeded, so a run with faults can be replayed exactly. */
export { seededRandom } from "../../../shared/seeded-random.js";
