/**
 * The durable job store on SQLite (better-sqlite3, WAL): jobs, their event logs, cached folds and results
 * survive a restart. Each JobStore call is one transaction, so nothing is ever half-written; a
 * result's chunks are written as they are composed and read only once its head is. Rows read back
 * are parsed with the shared schemas, as anything crossing a boundary is. Each job row counts the
 * bytes its input and result take, for the quotas; the file gives freed pages back to the disk
 * (incremental auto-vacuum) after expiry and deletion. Deletion works on a full disk too: it
 * writes nothing first, and has a reserve to give up for its journal (sqlite-room.ts).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { JobEventSchema, type JobEvent } from "../../../shared/job-events.js";
import { JobStatusSchema } from "../../../shared/job-view.js";
import { StartBulkInput, type StartBulkArgs } from "../../../shared/tools.js";
import {
  QuotaExceededError,
  ResultHeadSchema,
  StorageFullError,
  STARTS_KEPT_MS,
  StoreConflictError,
  hasRoom,
  checkContinues,
  chunkCount,
  inputBytes,
  readStoredFold,
  type CreateQuota,
  type JobStore,
  type StoredJob,
} from "../store.js";
import { createRoom, type Room } from "./sqlite-room.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  job_id TEXT PRIMARY KEY, subject TEXT NOT NULL, session_id TEXT, status TEXT NOT NULL,
  created_at INTEGER NOT NULL, last_seq INTEGER NOT NULL, view TEXT NOT NULL);
-- apart from jobs, whose row is rewritten on every append: the input may be megabytes
CREATE TABLE IF NOT EXISTS inputs (
  job_id TEXT PRIMARY KEY, occasion TEXT NOT NULL, budget_per_person REAL NOT NULL, csv TEXT, employees TEXT);
CREATE INDEX IF NOT EXISTS jobs_by_status ON jobs (status, created_at);
CREATE INDEX IF NOT EXISTS jobs_by_subject ON jobs (subject, created_at);
-- creations by subject, for the rate of starts: kept a day, whatever becomes of the jobs
CREATE TABLE IF NOT EXISTS starts (subject TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS starts_by_subject ON starts (subject, created_at);
CREATE TABLE IF NOT EXISTS events (
  job_id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (job_id, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (job_id TEXT PRIMARY KEY, head TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS result_chunks (
  job_id TEXT NOT NULL, idx INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (job_id, idx)) WITHOUT ROWID;
`;
const UNFINISHED = "status IN ('pending', 'running')";
const isUnfinished = (status: string) => status === "pending" || status === "running";
type InputRow = { occasion: string; budget_per_person: number; csv: string | null; employees: string | null };
type JobRow = {
  job_id: string;
  subject: string;
  session_id: string | null;
  status: string;
  created_at: number;
  last_seq: number;
  fold: string;
};

/** The page size of a new file: SQLite's own, so a fresh database takes 56 KB, not 14 pages of 64 KB. */
const PAGE_SIZE = 4096;
/** WAL bytes between two checkpoints, whatever the page size. */
const CHECKPOINT_BYTES = 4 * 1024 * 1024;

export type SqliteStoreOptions = {
  /** Caps the file at this many pages, as a full disk would (for tests). */
  maxPageCount?: number;
  /** The page size of a new file (a file keeps the one it was made with); 4 KB by default. */
  pageSize?: number;
};

/** Opens the file with this store's settings and tables; closed again when that fails (a full disk). */
function openDatabase(path: string, { maxPageCount, pageSize = PAGE_SIZE }: SqliteStoreOptions): Database.Database {
  const db = new Database(path);
  try {
    // only takes effect on a new file
    db.pragma(`page_size = ${Math.floor(pageSize)}`);
    // freed pages go back to the disk at each incremental_vacuum; this must be set before the first
    // table, so a file made without it is rebuilt once
    if (db.pragma("auto_vacuum", { simple: true }) !== 2) {
      db.pragma("auto_vacuum = INCREMENTAL");
      const tables = db.prepare<[], number>("SELECT count(*) FROM sqlite_master").pluck().get() ?? 0;
      if (tables > 0) db.exec("VACUUM");
    }
    db.pragma("journal_mode = WAL");
    // WAL with synchronous=NORMAL keeps every commit atomic; a power cut may lose the last ones only
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 5000");
    // checkpoint every 4 MB of WAL: a checkpoint blocks the commit that runs it, so many small
    // ones keep each pause short where rare big ones would not
    const filePageSize = db.pragma("page_size", { simple: true }) as number;
    db.pragma(`wal_autocheckpoint = ${Math.max(1, Math.round(CHECKPOINT_BYTES / filePageSize))}`);
    // and the WAL file is cut back to that size after a checkpoint, not left at its largest
    db.pragma(`journal_size_limit = ${CHECKPOINT_BYTES}`);
    db.exec(SCHEMA);
    if (maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.floor(maxPageCount)}`);
    // bytes of the job's input and result, kept in step by every write, for the quotas
    const columns = db.prepare<[], string>("SELECT name FROM pragma_table_info('jobs')").pluck().all();
    if (!columns.includes("bytes")) db.exec("ALTER TABLE jobs ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0");
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Opens (and creates, with its directory) the database at `path`; ":memory:" for a private one. */
export function createSqliteStore(path: string, options: SqliteStoreOptions = {}): JobStore {
  const onDisk = path !== ":memory:" && path !== "" ? path : undefined;
  if (onDisk) mkdirSync(dirname(onDisk), { recursive: true });
  const db = openDatabase(path, options);
  let room: Room;
  try {
    room = createRoom(db, onDisk);
  } catch (error) {
    db.close();
    throw error;
  }

  const q = {
    insertJob: db.prepare(
      "INSERT INTO jobs (job_id, subject, session_id, status, created_at, last_seq, view, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    insertInput: db.prepare(
      "INSERT INTO inputs (job_id, occasion, budget_per_person, csv, employees) VALUES (?, ?, ?, ?, ?)",
    ),
    getJob: db.prepare<[string], JobRow>(
      "SELECT job_id, subject, session_id, status, created_at, last_seq, view AS fold FROM jobs WHERE job_id = ?",
    ),
    lastSeq: db.prepare<[string], number>("SELECT last_seq FROM jobs WHERE job_id = ?").pluck(),
    status: db.prepare<[string], string>("SELECT status FROM jobs WHERE job_id = ?").pluck(),
    updateJob: db.prepare("UPDATE jobs SET status = ?, last_seq = ?, view = ? WHERE job_id = ?"),
    insertEvent: db.prepare("INSERT INTO events (job_id, seq, body) VALUES (?, ?, ?)"),
    readEvents: db
      .prepare<[string, number, number], string>(
        "SELECT body FROM events WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?",
      )
      .pluck(),
    insertHead: db.prepare("INSERT INTO results (job_id, head) VALUES (?, ?)"),
    insertChunk: db.prepare("INSERT INTO result_chunks (job_id, idx, body) VALUES (?, ?, ?)"),
    // chunks are contiguous from 0 (see putChunk), so the next index is also how many there are
    nextChunk: db
      .prepare<[string], number>("SELECT coalesce(max(idx) + 1, 0) FROM result_chunks WHERE job_id = ?")
      .pluck(),
    dropChunks: db.prepare("DELETE FROM result_chunks WHERE job_id = ?"),
    addBytes: db.prepare("UPDATE jobs SET bytes = bytes + ? WHERE job_id = ?"),
    chunkBytes: db
      .prepare<[string], number>(
        "SELECT coalesce(sum(length(CAST(body AS BLOB))), 0) FROM result_chunks WHERE job_id = ?",
      )
      .pluck(),
    inputBytes: db
      .prepare<[string], number>(
        "SELECT coalesce(length(CAST(csv AS BLOB)), 0) + coalesce(length(CAST(employees AS BLOB)), 0) FROM inputs WHERE job_id = ?",
      )
      .pluck(),
    dropInput: db.prepare("DELETE FROM inputs WHERE job_id = ?"),
    readInput: db.prepare<[string], InputRow>(
      "SELECT i.occasion, i.budget_per_person, i.csv, i.employees FROM inputs i JOIN jobs j USING (job_id) WHERE job_id = ? AND j." +
        UNFINISHED,
    ),
    insertStart: db.prepare("INSERT INTO starts (subject, created_at) VALUES (?, ?)"),
    trimStarts: db.prepare("DELETE FROM starts WHERE subject = ? AND created_at < ?"),
    usage: db.prepare<[string], { unfinished: number; bytes: number }>(
      `SELECT coalesce(sum(${UNFINISHED}), 0) AS unfinished, coalesce(sum(bytes), 0) AS bytes FROM jobs WHERE subject = ?`,
    ),
    startsSince: db.prepare<[string, number], { n: number; first: number | null }>(
      "SELECT count(*) AS n, min(created_at) AS first FROM starts WHERE subject = ? AND created_at >= ?",
    ),
    readHead: db.prepare<[string], string>("SELECT head FROM results WHERE job_id = ?").pluck(),
    hasHead: db.prepare<[string], number>("SELECT 1 FROM results WHERE job_id = ?").pluck(),
    readChunks: db
      .prepare<[string, number, number, string], string>(
        "SELECT body FROM result_chunks WHERE job_id = ? AND idx >= ? AND idx < ? AND EXISTS (SELECT 1 FROM results WHERE job_id = ?) ORDER BY idx",
      )
      .pluck(),
    readComposed: db
      .prepare<[string, number, number, string], string>(
        `SELECT body FROM result_chunks WHERE job_id = ? AND idx >= ? AND idx < ? AND NOT EXISTS (SELECT 1 FROM results WHERE job_id = ?) ORDER BY idx`,
      )
      .pluck(),
    unfinished: db.prepare<[], JobRow>(
      `SELECT job_id, subject, session_id, status, created_at, last_seq, view AS fold FROM jobs WHERE ${UNFINISHED} ORDER BY created_at`,
    ),
    expired: db.prepare<[number], string>(`SELECT job_id FROM jobs WHERE created_at < ? AND NOT ${UNFINISHED}`).pluck(),
    deletes: ["events", "result_chunks", "results", "inputs", "jobs"].map((t) =>
      db.prepare(`DELETE FROM ${t} WHERE job_id = ?`),
    ),
  };

  const insertEvents = (jobId: string, events: JobEvent[]) => {
    for (const e of events) q.insertEvent.run(jobId, e.seq, JSON.stringify(e));
  };
  const toJob = (r: JobRow): StoredJob => ({
    jobId: r.job_id,
    owner: r.session_id === null ? { subject: r.subject } : { subject: r.subject, sessionId: r.session_id },
    createdAt: r.created_at,
    status: JobStatusSchema.parse(r.status),
    lastSeq: r.last_seq,
    fold: readStoredFold(r.fold),
  });

  const usageOf = (subject: string, since: number) => {
    const { unfinished, bytes } = q.usage.get(subject)!;
    const { n, first } = q.startsSince.get(subject, since)!;
    return { unfinished, bytes, startedSince: n, ...(first === null ? {} : { firstStartSince: first }) };
  };
  const create = db.transaction(
    (
      job: Parameters<JobStore["create"]>[0],
      events: JobEvent[],
      view: string,
      status: string,
      quota: CreateQuota | undefined,
    ) => {
      checkContinues(0, events);
      if (q.lastSeq.get(job.jobId) !== undefined) throw new StoreConflictError(`job ${job.jobId} already exists`);
      const { subject, sessionId } = job.owner;
      const bytes = inputBytes(job.input);
      if (quota && !hasRoom(usageOf(subject, quota.since), bytes, quota)) {
        throw new QuotaExceededError(`no room for job ${job.jobId}`);
      }
      q.insertJob.run(job.jobId, subject, sessionId ?? null, status, job.createdAt, events.length, view, bytes);
      const { occasion, budgetPerPerson, csv, employees } = job.input;
      // the CSV as it came, not JSON-encoded: it can be megabytes
      q.insertInput.run(
        job.jobId,
        occasion,
        budgetPerPerson,
        csv ?? null,
        employees ? JSON.stringify(employees) : null,
      );
      insertEvents(job.jobId, events);
      q.trimStarts.run(subject, job.createdAt - STARTS_KEPT_MS);
      q.insertStart.run(subject, job.createdAt);
    },
  );
  const putChunk = db.transaction((jobId: string, index: number, body: string) => {
    const status = q.status.get(jobId);
    if (status === undefined) throw new StoreConflictError(`no job ${jobId}`);
    if (!isUnfinished(status)) throw new StoreConflictError(`job ${jobId} has ended`);
    const next = q.nextChunk.get(jobId);
    if (index !== next) throw new StoreConflictError(`expected chunk ${next}, got ${index}`);
    q.insertChunk.run(jobId, index, body);
    q.addBytes.run(Buffer.byteLength(body), jobId);
  });
  const append = db.transaction(
    (
      jobId: string,
      events: JobEvent[],
      fold: Parameters<JobStore["append"]>[2],
      head?: Parameters<JobStore["append"]>[3],
    ) => {
      const last = q.lastSeq.get(jobId);
      if (last === undefined) throw new StoreConflictError(`no job ${jobId}`);
      checkContinues(last, events);
      const ends = !isUnfinished(fold.status);
      const hasHead = (ends || head !== undefined) && q.hasHead.get(jobId) !== undefined;
      if (head) {
        if (hasHead) throw new StoreConflictError(`job ${jobId} already has a result`);
        const put = q.nextChunk.get(jobId);
        if (put !== chunkCount(head))
          throw new StoreConflictError(`the result needs ${chunkCount(head)} chunks, ${put} were put`);
      }
      insertEvents(jobId, events);
      q.updateJob.run(fold.status, fold.lastSeq, JSON.stringify(fold), jobId);
      if (head) {
        const text = JSON.stringify(head);
        q.insertHead.run(jobId, text);
        q.addBytes.run(Buffer.byteLength(text), jobId);
      } else if (ends && !hasHead) {
        q.addBytes.run(-q.chunkBytes.get(jobId)!, jobId);
        q.dropChunks.run(jobId);
      }
      if (ends) {
        q.addBytes.run(-(q.inputBytes.get(jobId) ?? 0), jobId);
        q.dropInput.run(jobId);
      }
    },
  );
  const remove = db.transaction((jobId: string) => {
    if (q.lastSeq.get(jobId) === undefined) return false;
    for (const d of q.deletes) d.run(jobId);
    return true;
  });

  return {
    async create(job, events, fold, quota) {
      room.write(() => create(job, events, JSON.stringify(fold), fold.status, quota));
    },
    async getJob(jobId) {
      const row = q.getJob.get(jobId);
      return row && toJob(row);
    },
    async putResultChunk(jobId, index, body) {
      room.write(() => putChunk(jobId, index, body));
    },
    async append(jobId, events, fold, head) {
      room.write(() => append(jobId, events, fold, head));
    },
    async readEvents(jobId, afterSeq, limit) {
      return q.readEvents.all(jobId, afterSeq, limit).map((body) => JobEventSchema.parse(JSON.parse(body)));
    },
    async readResultHead(jobId) {
      const head = q.readHead.get(jobId);
      return head === undefined ? undefined : ResultHeadSchema.parse(JSON.parse(head));
    },
    async readResultChunks(jobId, from, to) {
      return q.readChunks.all(jobId, from, to, jobId);
    },
    async readComposedChunks(jobId, from, to) {
      return q.readComposed.all(jobId, from, to, jobId);
    },
    async listUnfinished() {
      return q.unfinished.all().map(toJob);
    },
    async readInput(jobId) {
      const row = q.readInput.get(jobId);
      if (!row) return undefined;
      const { occasion, budget_per_person: budgetPerPerson, csv, employees } = row;
      return StartBulkInput.parse({
        occasion,
        budgetPerPerson,
        ...(csv === null ? {} : { csv }),
        ...(employees === null ? {} : { employees: JSON.parse(employees) as StartBulkArgs["employees"] }),
      });
    },
    async delete(jobId) {
      return room.freeing(() => remove(jobId));
    },
    async usage(subject, since) {
      return usageOf(subject, since);
    },
    async ping() {
      db.prepare("SELECT 1").get();
      if (room.isFull()) throw new StorageFullError();
    },
    async expire(createdBefore) {
      const ids = q.expired.all(createdBefore);
      // one job per write: on a full disk each fits in the room the last one gave back
      for (const id of ids) {
        room.freeing(() => remove(id));
        await new Promise(setImmediate);
      }
      // and what an earlier step could not give back on a full disk goes now
      if (ids.length === 0) room.settle();
      return ids;
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
