/**
 * The durable job store on SQLite (better-sqlite3, WAL): each call is one transaction, rows read
 * back are parsed with the shared schemas, and each job row counts the bytes its input and result
 * take, for the quotas. Deletion works on a full disk too (sqlite-room.ts).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { JobEventSchema, type JobEvent } from "../../../shared/job-events.js";
import type { JobFold } from "../../../shared/job-reducer.js";
import { isFinished, JobStatusSchema } from "../../../shared/job-view.js";
import { StorageFullError } from "../../store-errors.js";
import {
  QuotaExceededError,
  ResultHeadSchema,
  STARTS_KEPT_MS,
  StoreConflictError,
  hasRoom,
  checkChunk,
  checkContinues,
  checkHead,
  inputBytes,
  inputFields,
  readStoredFold,
  readStoredInput,
  type CreateQuota,
  type JobStore,
  type NewJob,
  type ResultHead,
  type StoredJob,
} from "../store.js";
import { openDatabase, type SqliteStoreOptions } from "./sqlite-file.js";
import { createRoom, type Room } from "./sqlite-room.js";
import { prepareStatements, type JobRow, type Statements } from "./sqlite-statements.js";

export type { SqliteStoreOptions } from "./sqlite-file.js";

const toJob = (r: JobRow): StoredJob => ({
  jobId: r.job_id,
  owner: r.session_id === null ? { subject: r.subject } : { subject: r.subject, sessionId: r.session_id },
  createdAt: r.created_at,
  status: JobStatusSchema.parse(r.status),
  lastSeq: r.last_seq,
  fold: readStoredFold(r.fold),
});

class SqliteJobStore implements JobStore {
  readonly #db: Database.Database;
  readonly #room: Room;
  readonly #q: Statements;
  readonly #transaction: (run: () => unknown) => unknown;

  constructor(db: Database.Database, room: Room) {
    this.#db = db;
    this.#room = room;
    this.#q = prepareStatements(db);
    this.#transaction = db.transaction((run: () => unknown) => run());
  }

  #write<T>(run: () => T): T {
    return this.#room.write(() => this.#transaction(run) as T);
  }

  readonly create: JobStore["create"] = async (job, events, fold, quota) =>
    this.#write(() => this.#insertJob(job, events, fold, quota));

  readonly getJob: JobStore["getJob"] = async (jobId) => {
    const row = this.#q.jobs.get.get(jobId);
    return row && toJob(row);
  };

  readonly putResultChunk: JobStore["putResultChunk"] = async (jobId, index, body) =>
    this.#write(() => this.#insertChunk(jobId, index, body));

  readonly append: JobStore["append"] = async (jobId, events, fold, head) =>
    this.#write(() => this.#appendEvents(jobId, events, fold, head));

  readonly readEvents: JobStore["readEvents"] = async (jobId, afterSeq, limit) =>
    this.#q.events.read.all(jobId, afterSeq, limit).map((body) => JobEventSchema.parse(JSON.parse(body)));

  readonly readResultHead: JobStore["readResultHead"] = async (jobId) => {
    const head = this.#q.results.readHead.get(jobId);
    return head === undefined ? undefined : ResultHeadSchema.parse(JSON.parse(head));
  };

  readonly readResultChunks: JobStore["readResultChunks"] = async (jobId, from, to) =>
    this.#q.results.readChunks.all(jobId, from, to, jobId);

  readonly readComposedChunks: JobStore["readComposedChunks"] = async (jobId, from, to) =>
    this.#q.results.readComposed.all(jobId, from, to, jobId);

  readonly listUnfinished: JobStore["listUnfinished"] = async () => this.#q.jobs.unfinished.all().map(toJob);

  readonly readInput: JobStore["readInput"] = async (jobId) => {
    const row = this.#q.inputs.read.get(jobId);
    return row && readStoredInput(row);
  };

  readonly delete: JobStore["delete"] = async (jobId) => this.#room.freeing(() => this.#remove(jobId));

  readonly listJobs: JobStore["listJobs"] = async (subject, { before, limit }) =>
    (before === undefined
      ? this.#q.jobs.newest.all(subject, limit)
      : this.#q.jobs.olderThan.all(subject, before.createdAt, before.jobId, limit)
    ).map(toJob);

  readonly claimFollowUp: JobStore["claimFollowUp"] = async (jobId) =>
    this.#room.write(() => this.#q.jobs.claimFollowUp.run(jobId).changes === 1);

  readonly usage: JobStore["usage"] = async (subject, since) => this.#usageOf(subject, since);

  readonly ping: JobStore["ping"] = async () => {
    this.#db.prepare("SELECT 1").get();
    if (this.#room.isFull()) throw new StorageFullError();
  };

  readonly expire: JobStore["expire"] = async (createdBefore) => {
    const ids = this.#q.jobs.expired.all(createdBefore);
    // one job per write: on a full disk each fits in the room the last one gave back
    for (const id of ids) {
      this.#room.freeing(() => this.#remove(id));
      await new Promise(setImmediate);
    }
    // and what an earlier step could not give back on a full disk goes now
    if (ids.length === 0) this.#room.settle();
    return ids;
  };

  readonly close: JobStore["close"] = async () => {
    if (this.#db.open) this.#db.close();
  };

  #remove(jobId: string): boolean {
    return this.#transaction(() => {
      if (this.#q.jobs.lastSeq.get(jobId) === undefined) return false;
      for (const d of this.#q.jobs.deletes) d.run(jobId);
      return true;
    }) as boolean;
  }

  #insertJob(job: NewJob, events: JobEvent[], fold: JobFold, quota: CreateQuota | undefined): void {
    checkContinues(0, events);
    if (this.#q.jobs.lastSeq.get(job.jobId) !== undefined) {
      throw new StoreConflictError(`job ${job.jobId} already exists`);
    }
    const { subject, sessionId } = job.owner;
    const bytes = inputBytes(job.input);
    if (quota && !hasRoom(this.#usageOf(subject, quota.since), bytes, quota)) {
      throw new QuotaExceededError(`no room for job ${job.jobId}`);
    }
    const row = [job.jobId, subject, sessionId ?? null, fold.status, job.createdAt, events.length];
    this.#q.jobs.insert.run(...row, JSON.stringify(fold), bytes);
    this.#q.inputs.insert.run({ jobId: job.jobId, ...inputFields(job.input) });
    this.#insertEvents(job.jobId, events);
    this.#q.usage.trimStarts.run(subject, job.createdAt - STARTS_KEPT_MS);
    this.#q.usage.insertStart.run(subject, job.createdAt);
  }

  #usageOf(subject: string, since: number): Awaited<ReturnType<JobStore["usage"]>> {
    const { unfinished, bytes } = this.#q.usage.ofJobs.get(subject)!;
    const { n, first } = this.#q.usage.startsSince.get(subject, since)!;
    return { unfinished, bytes, startedSince: n, ...(first === null ? {} : { firstStartSince: first }) };
  }

  #addBytes(jobId: string, bytes: number): void {
    if (bytes !== 0) this.#q.usage.addBytes.run(bytes, jobId);
  }

  #insertChunk(jobId: string, index: number, body: string): void {
    checkChunk(jobId, this.#q.jobs.status.get(jobId), this.#q.results.nextChunk.get(jobId)!, index);
    this.#q.results.insertChunk.run(jobId, index, body);
    this.#addBytes(jobId, Buffer.byteLength(body));
  }

  #appendEvents(jobId: string, events: JobEvent[], fold: JobFold, head: ResultHead | undefined): void {
    const last = this.#q.jobs.lastSeq.get(jobId);
    if (last === undefined) throw new StoreConflictError(`no job ${jobId}`);
    checkContinues(last, events);
    const ends = isFinished(fold.status);
    const hasHead = (ends || head !== undefined) && this.#q.results.hasHead.get(jobId) !== undefined;
    if (head) checkHead(jobId, head, hasHead, this.#q.results.nextChunk.get(jobId)!);
    this.#insertEvents(jobId, events);
    this.#q.jobs.update.run(fold.status, fold.lastSeq, JSON.stringify(fold), jobId);
    if (head) {
      const text = JSON.stringify(head);
      this.#q.results.insertHead.run(jobId, text);
      this.#addBytes(jobId, Buffer.byteLength(text));
    } else if (ends && !hasHead) {
      this.#addBytes(jobId, -this.#q.results.chunkBytes.get(jobId)!);
      this.#q.results.dropChunks.run(jobId);
    }
    if (ends) {
      // nothing reads a job's input once it has ended
      this.#addBytes(jobId, -(this.#q.inputs.bytes.get(jobId) ?? 0));
      this.#q.inputs.drop.run(jobId);
    }
  }

  #insertEvents(jobId: string, events: JobEvent[]): void {
    for (const e of events) this.#q.events.insert.run(jobId, e.seq, JSON.stringify(e));
  }
}

/** Opens (and creates, with its directory) the database at `path`; ":memory:" for a private one. */
export function createSqliteStore(path: string, options: SqliteStoreOptions = {}): JobStore {
  const onDisk = path !== ":memory:" && path !== "" ? path : undefined;
  if (onDisk) mkdirSync(dirname(onDisk), { recursive: true });
  const db = openDatabase(path, options);
  try {
    return new SqliteJobStore(db, createRoom(db, onDisk));
  } catch (error) {
    db.close();
    throw error;
  }
}
