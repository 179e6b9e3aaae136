/**
 * The storage interface behind the job system: jobs with their owner and input, each job's event
 * log (the truth), a cached fold of it, and finished results. Small and promise-based so that memory, SQLite and
 * Redis implement the same thing; every write that belongs together is one atomic call. A result's
 * chunks are written one by one as they are composed, and become the result with its head.
 */
import * as z from "zod/mini";
import type { JobEvent } from "../../shared/job-events.js";
import { foldJobEvents, JobFoldSchema, type JobFold } from "../../shared/job-reducer.js";
import type { JobStatus } from "../../shared/job-view.js";
import { SkippedRowSchema } from "../../shared/files.js";
import { CurrencySchema } from "../../shared/money.js";
import { ResultFiguresSchema, StartBulkInput, type StartBulkArgs } from "../../shared/tools.js";
import type { Caller } from "./caller.js";

/** A job as first written, with what the caller asked for as the record of the request. */
export type NewJob = { jobId: string; owner: Caller; input: StartBulkArgs; createdAt: number };

/**
 * A job as read back: owner, creation time (ms since the epoch), the status and last seq of its
 * events so far, and `fold`, the reducer's state as cached at the last write (unchecked: see `foldOf`).
 */
export type StoredJob = {
  jobId: string;
  owner: Caller;
  createdAt: number;
  status: JobStatus;
  lastSeq: number;
  fold: unknown;
};

/** The small part of a result: everything but the people, who are stored in chunks. */
export const ResultHeadSchema = z.object({
  occasion: z.string(),
  budgetPerPerson: z.number(),
  /** Absent from the heads of results stored before jobs had a currency: US dollars. */
  currency: z.optional(CurrencySchema),
  /** The job's language, for its files out; absent from heads stored before: English. */
  locale: z.optional(z.enum(["en", "ko"])),
  summary: z.string(),
  total: z.number().check(z.int(), z.gte(0)),
  chunkSize: z.number().check(z.int(), z.gte(1)),
  skipped: z.array(SkippedRowSchema),
  /** Absent from the heads of results stored before figures were kept. */
  figures: z.optional(ResultFiguresSchema),
});
export type ResultHead = z.infer<typeof ResultHeadSchema>;

/** How many chunks of `head.chunkSize` people a result with this head has. */
export const chunkCount = (head: Pick<ResultHead, "total" | "chunkSize">): number =>
  Math.ceil(head.total / head.chunkSize);

/** Where a job sits in its owner's list, newest first: by creation time, then by job id, both descending. */
export type JobPosition = { createdAt: number; jobId: string };

/** One page of an owner's jobs: up to `limit` of them, those after `before` (older) when it is given. */
export type JobPage = { before?: JobPosition; limit: number };

/** The room a new job must find in its subject's usage, checked in the step that writes it. */
export type CreateQuota = { since: number; maxUnfinished: number; maxStartsSince: number; maxBytes: number };

/** Thrown by `create` when the subject's usage left no room under its `CreateQuota`; nothing was written. */
export class QuotaExceededError extends Error {
  override name = "QuotaExceededError";
}

/** Whether `usage` leaves room under `quota` for a job whose input takes `bytes`. */
export const hasRoom = (usage: OwnerUsage, bytes: number, quota: CreateQuota): boolean =>
  usage.unfinished < quota.maxUnfinished &&
  usage.startedSince < quota.maxStartsSince &&
  usage.bytes + bytes <= quota.maxBytes;

/** What one subject keeps in a store, for the quotas (limits.ts). */
type OwnerUsage = {
  /** Its jobs that are pending or running. */
  unfinished: number;
  /** Its jobs created at or after the `since` asked for, deleted ones included. */
  startedSince: number;
  /** The earliest of those creation times, to say when the next one may start. */
  firstStartSince?: number;
  /** UTF-8 bytes of the inputs and results its jobs keep. */
  bytes: number;
};

/** How long stores remember creations for `usage` after the job itself was deleted. */
export const STARTS_KEPT_MS = 24 * 60 * 60 * 1000;

/** The bytes a job's input takes in a store: its CSV as it came, or its list as JSON. */
export const inputBytes = ({ csv, employees }: StartBulkArgs): number =>
  Buffer.byteLength(csv ?? JSON.stringify(employees ?? []));

/**
 * A job's input as the durable stores keep it, a field each, null where it has none: the CSV as it
 * came (not JSON-encoded: it can be megabytes), the list as JSON.
 */
export const inputFields = ({ occasion, budgetPerPerson, csv, employees, currency, locale }: StartBulkArgs) => ({
  occasion,
  budgetPerPerson,
  csv: csv ?? null,
  employees: employees ? JSON.stringify(employees) : null,
  currency: currency ?? null,
  locale: locale ?? null,
});

/** An input read back from its stored fields, null or absent where it had none (an older one has no currency: US dollars). */
export function readStoredInput({
  budgetPerPerson,
  employees,
  ...rest
}: Partial<Record<keyof ReturnType<typeof inputFields>, string | number | null>>): StartBulkArgs {
  const fields = {
    ...rest,
    budgetPerPerson: Number(budgetPerPerson),
    employees: employees && (JSON.parse(String(employees)) as unknown),
  };
  return StartBulkInput.parse(
    Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)),
  );
}

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

/** Throws `StoreConflictError` unless chunk `index` may come next for a job with `status` (undefined: none) and `put` chunks. */
export function checkChunk(jobId: string, status: string | undefined, put: number, index: number): void {
  if (status === undefined) throw new StoreConflictError(`no job ${jobId}`);
  if (status !== "pending" && status !== "running") throw new StoreConflictError(`job ${jobId} has ended`);
  if (index !== put) throw new StoreConflictError(`expected chunk ${put}, got ${index}`);
}

/** Throws `StoreConflictError` unless `head` may commit the `put` chunks as the job's one result. */
export function checkHead(jobId: string, head: ResultHead, hasHead: boolean, put: number): void {
  if (hasHead) throw new StoreConflictError(`job ${jobId} already has a result`);
  if (put !== chunkCount(head)) {
    throw new StoreConflictError(`the result needs ${chunkCount(head)} chunks, ${put} were put`);
  }
}

/**
 * What every store implements. The stores' methods are arrow-function properties: bound, and own
 * properties, so a test may spread a store to replace one of them.
 */
export type JobStore = {
  /**
   * Writes a new job with its first events and their fold, atomically. With `quota`, the same step
   * first checks the owner's usage (as `usage(subject, quota.since)` counts it) and throws
   * `QuotaExceededError` when it leaves no room: two starts at once cannot both take the last place.
   */
  create(job: NewJob, events: JobEvent[], fold: JobFold, quota?: CreateQuota): Promise<void>;
  getJob(jobId: string): Promise<StoredJob | undefined>;
  /**
   * Stores chunk `index` (serialized people, see result-codec.ts) of the result a running job is
   * composing. Chunks come in order from 0; another index, an unknown job or one that has ended
   * is a `StoreConflictError`. No reader sees them until `append` commits the result's head.
   * A caller may put the next chunk before the last put resolves: the store keeps the call order.
   */
  putResultChunk(jobId: string, index: number, body: string): Promise<void>;
  /**
   * Appends events with their seqs and the fold after them, all or nothing. The first seq must be
   * the job's last seq + 1, otherwise `StoreConflictError`. With the final event comes the result's
   * `head`, which makes the chunks put so far the result; they must be `chunkCount(head)`, and a
   * job has one result, otherwise `StoreConflictError`. An append that ends the job without a head
   * deletes the chunks put for it. An append that ends the job drops its input: nothing needs it
   * any more.
   */
  append(jobId: string, events: JobEvent[], fold: JobFold, head?: ResultHead): Promise<void>;
  /** Up to `limit` events with seq > `afterSeq`, in seq order. */
  readEvents(jobId: string, afterSeq: number, limit: number): Promise<JobEvent[]>;
  readResultHead(jobId: string): Promise<ResultHead | undefined>;
  /** Serialized chunks `from` (inclusive) to `to` (exclusive) of a committed result; fewer when it has fewer. */
  readResultChunks(jobId: string, from: number, to: number): Promise<string[]>;
  /**
   * The chunks put so far for a result not yet committed (`from` inclusive, `to` exclusive), so
   * that people already composed can be shown while the job runs; none once the job has ended.
   */
  readComposedChunks(jobId: string, from: number, to: number): Promise<string[]>;
  /**
   * For a store several processes share: calls `listener` with the job id of every append and
   * creation, by any process (this one's included), so that a long poll on one instance wakes on
   * another's events. Returns the unsubscribe. Absent where one process owns the store.
   */
  watch?(listener: (jobId: string) => void): () => void;
  /** The input of a job that has not ended; undefined once it has (or when there is no such job). */
  readInput(jobId: string): Promise<StartBulkArgs | undefined>;
  /**
   * Up to `limit` of `subject`'s jobs, newest first (creation time, then job id, both descending),
   * those after `before` in that order when it is given: a page that a job created or deleted
   * meanwhile never makes skip or repeat another. Only the subject's own jobs; deleted and expired
   * ones are gone from it with the rest of what they owned.
   */
  listJobs(subject: string, page: JobPage): Promise<StoredJob[]>;
  /**
   * Claims the job's follow-up (the one message that tells the chat it ended): true for the first
   * call once the job has ended, false for every other, however many processes ask at once; false
   * while it runs and for a job there is not. The claim goes with the job.
   */
  claimFollowUp(jobId: string): Promise<boolean>;
  /** Deletes a job with all it owns, whatever its status; false when there was no such job. */
  delete(jobId: string): Promise<boolean>;
  /** What `subject`'s jobs keep, counting the creations at or after `since` (kept for `STARTS_KEPT_MS`). */
  usage(subject: string, since: number): Promise<OwnerUsage>;
  /** Resolves when the store answers; rejects (`StoreUnavailableError` where it can tell) when it does not. */
  ping(): Promise<void>;
  /** Jobs that are pending or running, oldest first: after a restart these were interrupted. */
  listUnfinished(): Promise<StoredJob[]>;
  /** Deletes finished jobs created before `createdBefore` with all they own; returns their ids. */
  expire(createdBefore: number): Promise<string[]>;
  close(): Promise<void>;
};

/** A fold as a store kept it, as text: its JSON, or undefined when there is none or it is damaged. */
export function readStoredFold(text: string | null): unknown {
  try {
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined; // rebuilt from the events by foldOf
  }
}

/**
 * The reducer's state for a stored job: its cached fold when that still parses, else the fold
 * rebuilt from the job's events (the cache of an older reducer, or a damaged one, is never trusted).
 */
export async function foldOf(store: JobStore, job: StoredJob): Promise<JobFold> {
  const cached = JobFoldSchema.safeParse(job.fold);
  if (cached.success && cached.data.jobId === job.jobId && cached.data.lastSeq === job.lastSeq) return cached.data;
  const events: JobEvent[] = [];
  for (let page = await store.readEvents(job.jobId, 0, 1000); page.length > 0;) {
    events.push(...page);
    page = await store.readEvents(job.jobId, page[page.length - 1].seq, 1000);
  }
  return foldJobEvents(job.jobId, events);
}
