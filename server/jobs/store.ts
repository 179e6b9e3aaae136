/**
 * The storage interface behind the job system: jobs with their owner and input, each job's event
 * log (the truth), a cached fold of it, and results. SQLite (on disk or in memory) and Redis implement it; every
 * write that belongs together is one atomic call.
 */
import * as z from "zod/mini";
import type { JobEvent } from "../../shared/job-events.js";
import { foldJobEvents, JobFoldSchema, type JobFold } from "../../shared/job-reducer.js";
import type { JobStatus } from "../../shared/job-view.js";
import { SkippedRowSchema } from "../../shared/files.js";
import { CurrencySchema } from "../../shared/money.js";
import { ResultFiguresSchema, StartBulkInput, type StartBulkArgs } from "../../shared/tools.js";
import type { Caller } from "./caller.js";

/** A job as first written. */
export type NewJob = { jobId: string; owner: Caller; input: StartBulkArgs; createdAt: number };

/** A job as read back; `fold` is the reducer's state cached at the last write, unchecked (see `foldOf`). */
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

/** Where a job sits in its owner's list, newest first: by creation time, then job id. */
export type JobPosition = { createdAt: number; jobId: string };

/** Up to `limit` of an owner's jobs, those older than `before` when given. */
type JobPage = { before?: JobPosition; limit: number };

/** The room a new job must find in its subject's usage, checked in the step that writes it. */
export type CreateQuota = { since: number; maxUnfinished: number; maxStartsSince: number; maxBytes: number };

/** Thrown by `create` when the subject's usage left no room under its `CreateQuota`; nothing was written. */
export class QuotaExceededError extends Error {
  override name = "QuotaExceededError";
}

/** Throws `QuotaExceededError` unless `usage`, the owner's, leaves room for `job` under `quota`. */
export function checkRoom(job: NewJob, usage: OwnerUsage, quota: CreateQuota): void {
  const bytes = usage.bytes + inputBytes(job.input);
  if (usage.unfinished >= quota.maxUnfinished || usage.startedSince >= quota.maxStartsSince || bytes > quota.maxBytes)
    throw new QuotaExceededError(`no room for job ${job.jobId}`);
}

/** What one subject keeps in a store, for the quotas. */
export type OwnerUsage = {
  unfinished: number;
  /** Its jobs created at or after `since`, deleted ones included, and the earliest of those. */
  startedSince: number;
  firstStartSince?: number;
  /** UTF-8 bytes of the inputs and results its jobs keep. */
  bytes: number;
};

/** How long stores remember creations for `usage` after the job itself was deleted. */
export const STARTS_KEPT_MS = 24 * 60 * 60 * 1000;

/** The bytes a job's input takes in a store: its CSV as it came, or its list as JSON. */
export const inputBytes = ({ csv, employees }: StartBulkArgs): number =>
  Buffer.byteLength(csv ?? JSON.stringify(employees ?? []));

/** A job's input as the durable stores keep it, null where it has none: the CSV as it came (megabytes), the list as JSON. */
export const inputFields = ({ occasion, budgetPerPerson, csv, employees, currency, locale }: StartBulkArgs) => ({
  occasion,
  budgetPerPerson,
  csv: csv ?? null,
  employees: employees ? JSON.stringify(employees) : null,
  currency: currency ?? null,
  locale: locale ?? null,
});

/** An input read back from its stored fields. */
export function readStoredInput({ budgetPerPerson, employees, ...rest }: StoredInput): StartBulkArgs {
  const fields = {
    ...rest,
    budgetPerPerson: Number(budgetPerPerson),
    employees: employees && (JSON.parse(String(employees)) as unknown),
  };
  const present = Object.entries(fields).filter(([, v]) => v !== null && v !== undefined);
  return StartBulkInput.parse(Object.fromEntries(present));
}
type StoredInput = Partial<Record<keyof ReturnType<typeof inputFields>, string | number | null>>;

/** Thrown by a write that does not continue the job as stored (another writer got there first). */
export class StoreConflictError extends Error {
  override name = "StoreConflictError";
}

/** Throws `StoreConflictError` unless `events` carry seqs lastSeq + 1, lastSeq + 2, … in order. */
export function checkContinues(lastSeq: number, events: readonly JobEvent[]): void {
  events.forEach((e, i) => {
    if (e.seq !== lastSeq + 1 + i) throw new StoreConflictError(`expected seq ${lastSeq + 1 + i}, got ${e.seq}`);
  });
}

/** Throws unless chunk `index` may be put now: the job exists, has not ended, and `put` chunks came before. */
export function checkChunk(jobId: string, status: string | undefined, put: number, index: number): void {
  if (status === undefined) throw new StoreConflictError(`no job ${jobId}`);
  if (status !== "pending" && status !== "running") throw new StoreConflictError(`job ${jobId} has ended`);
  if (index !== put) throw new StoreConflictError(`expected chunk ${put}, got ${index}`);
}

/** Throws unless `head` may commit the `put` chunks as the job's one result. */
export function checkHead(jobId: string, head: ResultHead, hasHead: boolean, put: number): void {
  if (hasHead) throw new StoreConflictError(`job ${jobId} already has a result`);
  if (put !== chunkCount(head))
    throw new StoreConflictError(`the result needs ${chunkCount(head)} chunks, ${put} were put`);
}

/** What every store implements, as bound own properties, so that a test may spread a store to replace one. */
export type JobStore = {
  /**
   * Writes a new job with its first events and their fold. With `quota`, the same step first checks
   * the owner's usage and throws `QuotaExceededError`: two starts cannot both take the last place.
   */
  create(job: NewJob, events: JobEvent[], fold: JobFold, quota?: CreateQuota): Promise<void>;
  getJob(jobId: string): Promise<StoredJob | undefined>;
  /**
   * Stores chunk `index` of the result a running job is composing, in order from 0 (else
   * `StoreConflictError`), unseen until `append` commits its head. Puts keep their call order.
   */
  putResultChunk(jobId: string, index: number, body: string): Promise<void>;
  /**
   * Appends events and the fold after them, all or nothing, from the job's last seq + 1. `head`
   * makes the `chunkCount(head)` chunks put the job's one result. An append that ends the job drops
   * its input, and its chunks when there is no head. Else `StoreConflictError`.
   */
  append(jobId: string, events: JobEvent[], fold: JobFold, head?: ResultHead): Promise<void>;
  /** Up to `limit` events with seq > `afterSeq`, in seq order. */
  readEvents(jobId: string, afterSeq: number, limit: number): Promise<JobEvent[]>;
  readResultHead(jobId: string): Promise<ResultHead | undefined>;
  /**
   * Chunks `from` (inclusive) to `to` (exclusive) of a committed result; or (`composed`) of those put
   * so far for a result not yet committed, none once the job has ended.
   */
  readChunks(jobId: string, from: number, to: number, composed?: boolean): Promise<string[]>;
  /** Where processes share the store: `listener` hears the job id of every write of events, by any of them. */
  watch?(listener: (jobId: string) => void): () => void;
  /** The input of a job that has not ended. */
  readInput(jobId: string): Promise<StartBulkArgs | undefined>;
  /** A page of `subject`'s jobs, newest first: a job created or deleted meanwhile never makes one skip or repeat. */
  listJobs(subject: string, page: JobPage): Promise<StoredJob[]>;
  /** True for the first call once the job has ended, however many processes ask at once. */
  claimFollowUp(jobId: string): Promise<boolean>;
  /** Deletes a job with all it owns, whatever its status; false when there was no such job. */
  delete(jobId: string): Promise<boolean>;
  /** What `subject`'s jobs keep, counting the creations at or after `since`. */
  usage(subject: string, since: number): Promise<OwnerUsage>;
  /** Rejects when the store does not answer, or has no room. */
  ping(): Promise<void>;
  /** Jobs that are pending or running, oldest first: after a restart these were interrupted. */
  listUnfinished(): Promise<StoredJob[]>;
  /** Deletes finished jobs created before `createdBefore` with all they own; returns their ids. */
  expire(createdBefore: number): Promise<string[]>;
  close(): Promise<void>;
};

/** A stored fold's JSON, or undefined when there is none or it is damaged (`foldOf` rebuilds it). */
export function readStoredFold(text: string | null): unknown {
  try {
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A stored job's fold: the cached one when it still parses, else rebuilt from its events. */
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

/** Tasks run one after the other per key; a key is forgotten once its last task has settled. */
export class PerKeyQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const run = (this.#tails.get(key) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => {});
    this.#tails.set(key, tail);
    void tail.then(() => this.#tails.get(key) === tail && this.#tails.delete(key));
    return run;
  }
}
