/**
 * The durable job store on SQLite (better-sqlite3, WAL): each call is one transaction, rows read
 * back are parsed with the shared schemas, and each job row counts the bytes its input and result
 * take, for the quotas. Deletion works on a full disk too (sqlite-room.ts).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { JobEventSchema, type JobEvent } from "../../../shared/job-events.js";
import { isFinished, JobStatusSchema } from "../../../shared/job-view.js";
import { StorageFullError } from "../../store-errors.js";
import {
  QuotaExceededError,
  ResultHeadSchema,
  STARTS_KEPT_MS,
  StoreConflictError,
  checkContinues,
  chunkCount,
  hasRoom,
  inputBytes,
  inputFields,
  readStoredFold,
  readStoredInput,
  type JobStore,
  type StoredJob,
} from "../store.js";
import { openDatabase, type SqliteStoreOptions } from "./sqlite-file.js";
import { createRoom, type Room } from "./sqlite-room.js";

export type { SqliteStoreOptions } from "./sqlite-file.js";

const UNFINISHED = "status IN ('pending', 'running')";
const JOB_COLUMNS =
  "job_id AS jobId, subject, session_id AS sessionId, status, created_at AS createdAt, last_seq AS lastSeq, fold";
/** The tables of what a job owns, its row last. */
const OWNED = ["events", "result_chunks", "results", "inputs", "jobs"];
const BYTES = (column: string) => `coalesce(length(CAST(${column} AS BLOB)), 0)`;

/** A job's row as `JOB_COLUMNS` reads it. */
type JobRow = Omit<StoredJob, "owner" | "status" | "fold"> & Record<"subject" | "status" | "fold", string> & Session;
type Session = { sessionId: string | null };

const toJob = ({ subject, sessionId, status, fold, ...row }: JobRow): StoredJob => ({
  ...row,
  owner: sessionId === null ? { subject } : { subject, sessionId },
  status: JobStatusSchema.parse(status),
  fold: readStoredFold(fold),
});

class SqliteJobStore implements JobStore {
  readonly #db: Database.Database;
  readonly #room: Room;
  readonly #transaction: (run: () => unknown) => unknown;
  readonly #prepared = new Map<string, Database.Statement>();

  constructor(db: Database.Database, room: Room) {
    this.#db = db;
    this.#room = room;
    this.#transaction = db.transaction((run: () => unknown) => run());
  }

  #write<T>(run: () => T): T {
    return this.#room.write(() => this.#transaction(run) as T);
  }

  readonly create: JobStore["create"] = async (job, events, fold, quota) =>
    this.#write(() => {
      checkContinues(0, events);
      if (this.#lastSeq(job.jobId) !== undefined) throw new StoreConflictError(`job ${job.jobId} already exists`);
      const { subject, sessionId } = job.owner;
      const bytes = inputBytes(job.input);
      if (quota && !hasRoom(this.#usageOf(subject, quota.since), bytes, quota)) {
        throw new QuotaExceededError(`no room for job ${job.jobId}`);
      }
      const row = [job.jobId, subject, sessionId ?? null, fold.status, job.createdAt, events.length];
      const insert = "INSERT INTO jobs (job_id, subject, session_id, status, created_at, last_seq, fold, bytes)";
      this.#run(`${insert} VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, ...row, JSON.stringify(fold), bytes);
      this.#run(
        "INSERT INTO inputs (job_id, occasion, budget_per_person, csv, employees, currency, locale) VALUES (@jobId, @occasion, @budgetPerPerson, @csv, @employees, @currency, @locale)",
        { jobId: job.jobId, ...inputFields(job.input) },
      );
      this.#insertEvents(job.jobId, events);
      this.#run("DELETE FROM starts WHERE subject = ? AND created_at < ?", subject, job.createdAt - STARTS_KEPT_MS);
      this.#run("INSERT INTO starts (subject, created_at) VALUES (?, ?)", subject, job.createdAt);
    });

  readonly getJob: JobStore["getJob"] = async (jobId) => {
    const row = this.#get<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE job_id = ?`, jobId);
    return row && toJob(row);
  };

  readonly putResultChunk: JobStore["putResultChunk"] = async (jobId, index, body) =>
    this.#write(() => {
      const running = this.#value<number>(`SELECT ${UNFINISHED} FROM jobs WHERE job_id = ?`, jobId);
      if (running === undefined) throw new StoreConflictError(`no job ${jobId}`);
      if (!running) throw new StoreConflictError(`job ${jobId} has ended`);
      const put = this.#chunksPut(jobId);
      if (index !== put) throw new StoreConflictError(`expected chunk ${put}, got ${index}`);
      this.#run("INSERT INTO result_chunks (job_id, idx, body) VALUES (?, ?, ?)", jobId, index, body);
      this.#addBytes(jobId, Buffer.byteLength(body));
    });

  readonly append: JobStore["append"] = async (jobId, events, fold, head) =>
    this.#write(() => {
      const last = this.#lastSeq(jobId);
      if (last === undefined) throw new StoreConflictError(`no job ${jobId}`);
      checkContinues(last, events);
      const ends = isFinished(fold.status);
      const hasHead = (ends || head !== undefined) && this.#value("SELECT 1 FROM results WHERE job_id = ?", jobId);
      if (head && hasHead) throw new StoreConflictError(`job ${jobId} already has a result`);
      const put = head && this.#chunksPut(jobId);
      if (head && put !== chunkCount(head)) {
        throw new StoreConflictError(`the result needs ${chunkCount(head)} chunks, ${put} were put`);
      }
      this.#insertEvents(jobId, events);
      const update = "UPDATE jobs SET status = ?, last_seq = ?, fold = ? WHERE job_id = ?";
      this.#run(update, fold.status, fold.lastSeq, JSON.stringify(fold), jobId);
      if (head) {
        const text = JSON.stringify(head);
        this.#run("INSERT INTO results (job_id, head) VALUES (?, ?)", jobId, text);
        this.#addBytes(jobId, Buffer.byteLength(text));
      } else if (ends && !hasHead) {
        const chunkBytes = `SELECT coalesce(sum(${BYTES("body")}), 0) FROM result_chunks WHERE job_id = ?`;
        this.#addBytes(jobId, -this.#value<number>(chunkBytes, jobId)!);
        this.#run("DELETE FROM result_chunks WHERE job_id = ?", jobId);
      }
      if (ends) {
        // nothing reads a job's input once it has ended
        const inputBytes = `SELECT ${BYTES("csv")} + ${BYTES("employees")} FROM inputs WHERE job_id = ?`;
        this.#addBytes(jobId, -(this.#value<number>(inputBytes, jobId) ?? 0));
        this.#run("DELETE FROM inputs WHERE job_id = ?", jobId);
      }
    });

  readonly readEvents: JobStore["readEvents"] = async (jobId, afterSeq, limit) => {
    const sql = "SELECT body FROM events WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?";
    return this.#values<string>(sql, jobId, afterSeq, limit).map((body) => JobEventSchema.parse(JSON.parse(body)));
  };

  readonly readResultHead: JobStore["readResultHead"] = async (jobId) => {
    const head = this.#value<string>("SELECT head FROM results WHERE job_id = ?", jobId);
    return head === undefined ? undefined : ResultHeadSchema.parse(JSON.parse(head));
  };

  readonly readResultChunks: JobStore["readResultChunks"] = async (jobId, from, to) =>
    this.#chunks("", jobId, from, to);

  readonly readComposedChunks: JobStore["readComposedChunks"] = async (jobId, from, to) =>
    this.#chunks("NOT", jobId, from, to);

  readonly listUnfinished: JobStore["listUnfinished"] = async () =>
    this.#all<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE ${UNFINISHED} ORDER BY created_at`).map(toJob);

  readonly readInput: JobStore["readInput"] = async (jobId) => {
    // currency is null in rows written before jobs had one (US dollars), locale when none was known
    const row = this.#get<Record<string, string | number | null>>(
      `SELECT i.occasion, i.budget_per_person AS budgetPerPerson, i.csv, i.employees, i.currency, i.locale FROM inputs i JOIN jobs j USING (job_id) WHERE job_id = ? AND j.${UNFINISHED}`,
      jobId,
    );
    return row && readStoredInput(row);
  };

  readonly delete: JobStore["delete"] = async (jobId) => this.#room.freeing(() => this.#remove(jobId));

  // walks the index by owner, creation time and job id backwards, from where the page starts
  readonly listJobs: JobStore["listJobs"] = async (subject, { before, limit }) => {
    const { createdAt, jobId } = before ?? { createdAt: Infinity, jobId: "" };
    const sql = `SELECT ${JOB_COLUMNS} FROM jobs WHERE subject = ? AND (created_at, job_id) < (?, ?) ORDER BY created_at DESC, job_id DESC LIMIT ?`;
    return this.#all<JobRow>(sql, subject, createdAt, jobId, limit).map(toJob);
  };

  readonly claimFollowUp: JobStore["claimFollowUp"] = async (jobId) =>
    this.#room.write(
      () =>
        this.#run(`UPDATE jobs SET follow_up = 1 WHERE job_id = ? AND follow_up IS NULL AND NOT ${UNFINISHED}`, jobId)
          .changes === 1,
    );

  readonly usage: JobStore["usage"] = async (subject, since) => this.#usageOf(subject, since);

  readonly ping: JobStore["ping"] = async () => {
    this.#db.prepare("SELECT 1").get();
    if (this.#room.isFull()) throw new StorageFullError();
  };

  readonly expire: JobStore["expire"] = async (createdBefore) => {
    const expired = `SELECT job_id FROM jobs WHERE created_at < ? AND NOT ${UNFINISHED}`;
    const ids = this.#values<string>(expired, createdBefore);
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

  /** The statement for `sql`, prepared once; a plucked one answers with each row's first column alone. */
  #prepare(sql: string, pluck = false): Database.Statement {
    const key = `${pluck}${sql}`;
    let statement = this.#prepared.get(key);
    if (!statement)
      this.#prepared.set(key, (statement = pluck ? this.#db.prepare(sql).pluck() : this.#db.prepare(sql)));
    return statement;
  }

  #run = (sql: string, ...params: unknown[]) => this.#prepare(sql).run(...params);
  #get = <R>(sql: string, ...params: unknown[]) => this.#prepare(sql).get(...params) as R | undefined;
  #all = <R>(sql: string, ...params: unknown[]) => this.#prepare(sql).all(...params) as R[];
  #value = <R>(sql: string, ...params: unknown[]) => this.#prepare(sql, true).get(...params) as R | undefined;
  #values = <R>(sql: string, ...params: unknown[]) => this.#prepare(sql, true).all(...params) as R[];

  #lastSeq = (jobId: string) => this.#value<number>("SELECT last_seq FROM jobs WHERE job_id = ?", jobId);

  // chunks are contiguous from 0 (see putResultChunk), so the next index is also how many there are
  #chunksPut = (jobId: string) =>
    this.#value<number>("SELECT coalesce(max(idx) + 1, 0) FROM result_chunks WHERE job_id = ?", jobId)!;

  /** Chunks `from` to `to` of a job whose result is committed (`exists` ""), or not yet ("NOT"). */
  #chunks(exists: "" | "NOT", jobId: string, from: number, to: number): string[] {
    const sql = `SELECT body FROM result_chunks WHERE job_id = ? AND idx >= ? AND idx < ? AND ${exists} EXISTS (SELECT 1 FROM results WHERE job_id = ?) ORDER BY idx`;
    return this.#values<string>(sql, jobId, from, to, jobId);
  }

  #remove(jobId: string): boolean {
    return this.#transaction(() => {
      if (this.#lastSeq(jobId) === undefined) return false;
      for (const table of OWNED) this.#run(`DELETE FROM ${table} WHERE job_id = ?`, jobId);
      return true;
    }) as boolean;
  }

  #usageOf(subject: string, since: number): Awaited<ReturnType<JobStore["usage"]>> {
    const { unfinished, bytes } = this.#get<{ unfinished: number; bytes: number }>(
      `SELECT coalesce(sum(${UNFINISHED}), 0) AS unfinished, coalesce(sum(bytes), 0) AS bytes FROM jobs WHERE subject = ?`,
      subject,
    )!;
    const { n, first } = this.#get<{ n: number; first: number | null }>(
      "SELECT count(*) AS n, min(created_at) AS first FROM starts WHERE subject = ? AND created_at >= ?",
      subject,
      since,
    )!;
    return { unfinished, bytes, startedSince: n, ...(first === null ? {} : { firstStartSince: first }) };
  }

  #addBytes(jobId: string, bytes: number): void {
    if (bytes !== 0) this.#run("UPDATE jobs SET bytes = bytes + ? WHERE job_id = ?", bytes, jobId);
  }

  #insertEvents(jobId: string, events: JobEvent[]): void {
    for (const e of events)
      this.#run("INSERT INTO events (job_id, seq, body) VALUES (?, ?, ?)", jobId, e.seq, JSON.stringify(e));
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
