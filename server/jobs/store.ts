/**
 * The storage interface behind the job system: jobs with their owner and input, each job's event
 * log and reduced view, and finished results. Small and promise-based so that memory, SQLite and a
 * later Redis store implement the same thing; every write that belongs together is one atomic call.
 */
import * as z from "zod/mini";
import type { JobEvent } from "../../shared/job-events.js";
import type { JobView } from "../../shared/job-reducer.js";
import { SkippedRowSchema, type Employee } from "../../shared/tools.js";
import type { Caller } from "./job-service.js";

/** What the caller asked for, kept with the job as the record of the request. */
export type JobInput = { occasion: string; budgetPerPerson: number; csv?: string; employees?: Employee[] };

/** A job as first written: its status lives in the view (`view.status`), derived from its events. */
export type NewJob = { jobId: string; owner: Caller; input: JobInput; createdAt: number };

/** A job as read back: owner, creation time (ms since the epoch) and the view of its events so far. */
export type StoredJob = { jobId: string; owner: Caller; createdAt: number; view: JobView };

/** The small part of a result: everything but the people, who are stored in chunks. */
export const ResultHeadSchema = z.object({
  occasion: z.string(),
  budgetPerPerson: z.number(),
  summary: z.string(),
  total: z.number().check(z.int(), z.gte(0)),
  chunkSize: z.number().check(z.int(), z.gte(1)),
  skipped: z.array(SkippedRowSchema),
});
export type ResultHead = z.infer<typeof ResultHeadSchema>;

/** A finished result: the head and the people as serialized chunks of `head.chunkSize` (see result-codec.ts). */
export type StoredResult = { head: ResultHead; chunks: string[] };

/** Thrown by `append` when the events do not continue the job's log (another writer got there first). */
export class StoreConflictError extends Error {
  override name = "StoreConflictError";
}

/** Throws `StoreConflictError` unless `events` carry seqs lastSeq + 1, lastSeq + 2, … in order. */
export function checkContinues(lastSeq: number, events: readonly JobEvent[]): void {
  events.forEach((e, i) => {
    if (e.seq !== lastSeq + 1 + i) throw new StoreConflictError(`expected seq ${lastSeq + 1 + i}, got ${e.seq}`);
  });
}

export type JobStore = {
  /** Writes a new job with its first events and their view, atomically. */
  create(job: NewJob, events: JobEvent[], view: JobView): Promise<void>;
  getJob(jobId: string): Promise<StoredJob | undefined>;
  /**
   * Appends events with their seqs, the view after them and, with the final event, the result: all
   * or nothing. The first seq must be the job's last seq + 1, otherwise `StoreConflictError`.
   */
  append(jobId: string, events: JobEvent[], view: JobView, result?: StoredResult): Promise<void>;
  /** Up to `limit` events with seq > `afterSeq`, in seq order. */
  readEvents(jobId: string, afterSeq: number, limit: number): Promise<JobEvent[]>;
  readResultHead(jobId: string): Promise<ResultHead | undefined>;
  /** Serialized chunks `from` (inclusive) to `to` (exclusive); fewer when the result has fewer. */
  readResultChunks(jobId: string, from: number, to: number): Promise<string[]>;
  /** Jobs that are pending or running, oldest first: after a restart these were interrupted. */
  listUnfinished(): Promise<StoredJob[]>;
  /** Deletes finished jobs created before `createdBefore` with all they own; returns their ids. */
  expire(createdBefore: number): Promise<string[]>;
  close(): Promise<void>;
};
