/**
 * The durable job store on SQLite (better-sqlite3, WAL): each call is one transaction, rows read back are parsed
 * with the shared schemas, and each job row counts the bytes its input and result take, for the quotas. A file of
 * another schema (`user_version`) is made anew: its jobs are a day old at most; what this schema gained since is
 * added in place. Full disks: sqlite-room.ts.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { JobEventSchema, type JobEvent } from "../../../shared/job-events.js";
import { isFinished, JobStatusSchema } from "../../../shared/job-view.js";
import { StorageFullError } from "../../store-errors.js";
import {
  ResultHeadSchema,
  STARTS_KEPT_MS,
  StoreConflictError,
  checkChunk,
  checkContinues,
  checkHead,
  checkRoom,
  inputBytes,
  inputFields,
  readStoredFold,
  readStoredInput,
  type JobStore,
  type OwnerUsage,
  type StoredJob,
} from "../store.js";
import { createRoom, readPragma, type Room } from "./sqlite-room.js";

const UNFINISHED = "status IN ('pending', 'running')";
const JOB_COLUMNS =
  "job_id AS jobId, subject, session_id AS sessionId, status, created_at AS createdAt, last_seq AS lastSeq, fold";
/** The tables of what a job owns, its row last. */
const OWNED = ["events", "result_chunks", "results", "inputs", "jobs"];

/** What a write checks a job against; chunks are contiguous from 0 (see putResultChunk), so the next index is their count. */
const STATE = `SELECT status, last_seq AS lastSeq, EXISTS (SELECT 1 FROM results WHERE job_id = @jobId) AS hasHead,
  (SELECT coalesce(max(idx) + 1, 0) FROM result_chunks WHERE job_id = @jobId) AS chunksPut FROM jobs WHERE job_id = @jobId`;
type JobState = { status: string; lastSeq: number; hasHead: 0 | 1; chunksPut: number };

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
      if (this.#state(job.jobId)) throw new StoreConflictError(`job ${job.jobId} already exists`);
      const { subject, sessionId } = job.owner;
      if (quota) checkRoom(job, this.#usageOf(subject, quota.since), quota);
      const row = [job.jobId, subject, sessionId ?? null, fold.status, job.createdAt, events.length];
      const insert = "INSERT INTO jobs (job_id, subject, session_id, status, created_at, last_seq, fold, bytes)";
      this.#run(`${insert} VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, ...row, JSON.stringify(fold), inputBytes(job.input));
      this.#run(
        "INSERT INTO inputs (job_id, occasion, budget_per_person, csv, employees, currency, locale) VALUES (@jobId, @occasion, @budgetPerPerson, @csv, @employees, @currency, @locale)",
        { jobId: job.jobId, ...inputFields(job.input) },
      );
      this.#insertEvents(job.jobId, events);
      this.#run("DELETE FROM starts WHERE subject = ? AND created_at < ?", subject, job.createdAt - STARTS_KEPT_MS);
      this.#run("INSERT INTO starts (subject, created_at) VALUES (?, ?)", subject, job.createdAt);
    });

  readonly getJob: JobStore["getJob"] = async (jobId) =>
    this.#all<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE job_id = ?`, jobId).map(toJob).at(0);

  readonly putResultChunk: JobStore["putResultChunk"] = async (jobId, index, body) =>
    this.#write(() => {
      const job = this.#state(jobId);
      checkChunk(jobId, job?.status, job?.chunksPut ?? 0, index);
      this.#run("INSERT INTO result_chunks (job_id, idx, body) VALUES (?, ?, ?)", jobId, index, body);
      this.#addBytes(jobId, Buffer.byteLength(body));
    });

  readonly append: JobStore["append"] = async (jobId, events, fold, head) =>
    this.#write(() => {
      const job = this.#state(jobId);
      if (!job) throw new StoreConflictError(`no job ${jobId}`);
      checkContinues(job.lastSeq, events);
      if (head) checkHead(jobId, head, job.hasHead === 1, job.chunksPut);
      const ends = isFinished(fold.status);
      this.#insertEvents(jobId, events);
      const update = "UPDATE jobs SET status = ?, last_seq = ?, fold = ? WHERE job_id = ?";
      this.#run(update, fold.status, fold.lastSeq, JSON.stringify(fold), jobId);
      if (head) {
        const text = JSON.stringify(head);
        this.#run("INSERT INTO results (job_id, head) VALUES (?, ?)", jobId, text);
        this.#addBytes(jobId, Buffer.byteLength(text));
      } else if (ends && !job.hasHead) this.#drop(jobId, "result_chunks", "body");
      // nothing reads a job's input once it has ended
      if (ends) this.#drop(jobId, "inputs", "csv", "employees");
    });

  readonly readEvents: JobStore["readEvents"] = async (jobId, afterSeq, limit) => {
    const sql = "SELECT body FROM events WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?";
    return this.#values<string>(sql, jobId, afterSeq, limit).map((body) => JobEventSchema.parse(JSON.parse(body)));
  };

  readonly readResultHead: JobStore["readResultHead"] = async (jobId) => {
    const head = this.#values<string>("SELECT head FROM results WHERE job_id = ?", jobId).at(0);
    return head === undefined ? undefined : ResultHeadSchema.parse(JSON.parse(head));
  };

  readonly readChunks: JobStore["readChunks"] = async (jobId, from, to, composed = false) => {
    const committed = `${composed ? "NOT" : ""} EXISTS (SELECT 1 FROM results WHERE job_id = ?)`;
    const sql = `SELECT body FROM result_chunks WHERE job_id = ? AND idx >= ? AND idx < ? AND ${committed} ORDER BY idx`;
    return this.#values<string>(sql, jobId, from, to, jobId);
  };

  readonly listUnfinished: JobStore["listUnfinished"] = async () =>
    this.#all<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE ${UNFINISHED} ORDER BY created_at`).map(toJob);

  readonly readInput: JobStore["readInput"] = async (jobId) => {
    // currency is null in rows written before jobs had one (US dollars), locale when none was known
    const sql = `SELECT i.occasion, i.budget_per_person AS budgetPerPerson, i.csv, i.employees, i.currency, i.locale FROM inputs i JOIN jobs j USING (job_id) WHERE job_id = ? AND j.${UNFINISHED}`;
    return this.#all<Record<string, string | number | null>>(sql, jobId).map(readStoredInput).at(0);
  };

  readonly delete: JobStore["delete"] = async (jobId) => this.#room.freeing(() => this.#remove(jobId));

  // walks the index by owner, creation time and job id backwards, from where the page starts
  readonly listJobs: JobStore["listJobs"] = async (subject, { before, limit }) => {
    const { createdAt, jobId } = before ?? { createdAt: Infinity, jobId: "" };
    const sql = `SELECT ${JOB_COLUMNS} FROM jobs WHERE subject = ? AND (created_at, job_id) < (?, ?) ORDER BY created_at DESC, job_id DESC LIMIT ?`;
    return this.#all<JobRow>(sql, subject, createdAt, jobId, limit).map(toJob);
  };

  readonly claimFollowUp: JobStore["claimFollowUp"] = async (jobId) => {
    const sql = `UPDATE jobs SET follow_up = 1 WHERE job_id = ? AND follow_up IS NULL AND NOT ${UNFINISHED}`;
    return this.#room.write(() => this.#run(sql, jobId).changes === 1);
  };

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
  #all = <R>(sql: string, ...params: unknown[]) => this.#prepare(sql).all(...params) as R[];
  #values = <R>(sql: string, ...params: unknown[]) => this.#prepare(sql, true).all(...params) as R[];

  #state = (jobId: string) => this.#prepare(STATE).get({ jobId }) as JobState | undefined;

  /** Deletes what the job owns, its row last: true when there was one. */
  #remove(jobId: string): boolean {
    const removed = () => OWNED.map((table) => this.#run(`DELETE FROM ${table} WHERE job_id = ?`, jobId).changes);
    return (this.#transaction(removed) as number[]).at(-1) === 1;
  }

  #usageOf(subject: string, since: number): OwnerUsage {
    const starts = "FROM starts WHERE subject = @subject AND created_at >= @since";
    const sql = `SELECT coalesce(sum(${UNFINISHED}), 0) AS unfinished, coalesce(sum(bytes), 0) AS bytes, (SELECT count(*) ${starts}) AS startedSince, (SELECT min(created_at) ${starts}) AS first FROM jobs WHERE subject = @subject`;
    const { first, ...usage } = this.#prepare(sql).get({ subject, since }) as OwnerUsage & { first: number | null };
    return { ...usage, ...(first === null ? {} : { firstStartSince: first }) };
  }

  /** Deletes the job's rows in `table`, taking the bytes of their `columns` off the job's count. */
  #drop(jobId: string, table: string, ...columns: string[]): void {
    const bytes = columns.map((c) => `coalesce(length(CAST(${c} AS BLOB)), 0)`).join(" + ");
    const dropped = this.#values<number>(`DELETE FROM ${table} WHERE job_id = ? RETURNING ${bytes}`, jobId);
    this.#addBytes(jobId, -dropped.reduce((sum, n) => sum + n, 0));
  }

  #addBytes(jobId: string, bytes: number): void {
    if (bytes !== 0) this.#run("UPDATE jobs SET bytes = bytes + ? WHERE job_id = ?", bytes, jobId);
  }

  #insertEvents(jobId: string, events: JobEvent[]): void {
    for (const e of events)
      this.#run("INSERT INTO events (job_id, seq, body) VALUES (?, ?, ?)", jobId, e.seq, JSON.stringify(e));
  }
}

export type SqliteStoreOptions = {
  /** Caps the file at this many pages, as a full disk would (for tests). */
  maxPageCount?: number;
};

/** Opens (and creates, with its directory) the database at `path`; ":memory:" for a private one. */
export function createSqliteStore(path: string, options: SqliteStoreOptions = {}): JobStore {
  const onDisk = path !== ":memory:" && path !== "" ? path : undefined;
  if (onDisk) mkdirSync(dirname(onDisk), { recursive: true });
  const db = new Database(path);
  try {
    setUp(db, options);
    return new SqliteJobStore(db, createRoom(db, onDisk));
  } catch (error) {
    db.close();
    throw error;
  }
}

const SCHEMA_VERSION = 1;

const SCHEMA = `
-- fold: the job's state folded from its events (JobFold), a cache that foldOf rebuilds when it does not parse
CREATE TABLE jobs (
  job_id TEXT PRIMARY KEY, subject TEXT NOT NULL, session_id TEXT, status TEXT NOT NULL,
  created_at INTEGER NOT NULL, last_seq INTEGER NOT NULL, fold TEXT NOT NULL,
  -- bytes of the job's input and result, kept in step by every write, for the quotas
  bytes INTEGER NOT NULL,
  -- 1 once the job's follow-up was claimed (claimFollowUp), null before
  follow_up INTEGER);
-- apart from jobs, whose row is rewritten on every append: the input may be megabytes
CREATE TABLE inputs (
  job_id TEXT PRIMARY KEY, occasion TEXT NOT NULL, budget_per_person REAL NOT NULL, csv TEXT, employees TEXT,
  currency TEXT, locale TEXT);
CREATE INDEX jobs_by_status ON jobs (status, created_at);
CREATE INDEX jobs_by_owner ON jobs (subject, created_at, job_id);
-- creations by subject, for the rate of starts: kept a day, whatever becomes of the jobs
CREATE TABLE starts (subject TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX starts_by_subject ON starts (subject, created_at);
CREATE TABLE events (
  job_id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (job_id, seq)) WITHOUT ROWID;
CREATE TABLE results (job_id TEXT PRIMARY KEY, head TEXT NOT NULL);
CREATE TABLE result_chunks (
  job_id TEXT NOT NULL, idx INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (job_id, idx)) WITHOUT ROWID;
`;

/** The page size of a new file: SQLite's own, so a fresh database takes 56 KB, not 14 pages of 64 KB. */
const PAGE_SIZE = 4096;
const CHECKPOINT_BYTES = 4 * 1024 * 1024;

/** Gives the file this store's settings and tables. */
function setUp(db: Database.Database, { maxPageCount }: SqliteStoreOptions): void {
  // only takes effect on a new file
  db.pragma(`page_size = ${PAGE_SIZE}`);
  if (readPragma(db, "user_version") !== SCHEMA_VERSION) makeAnew(db);
  addSinceVersion(db);
  db.pragma("journal_mode = WAL");
  // WAL with synchronous=NORMAL keeps every commit atomic; a power cut may lose the last ones only
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  // checkpoint every 4 MB of WAL: a checkpoint blocks the commit that runs it, so many small
  // ones keep each pause short where rare big ones would not
  db.pragma(`wal_autocheckpoint = ${Math.max(1, Math.round(CHECKPOINT_BYTES / readPragma(db, "page_size")))}`);
  // and the WAL file is cut back to that size after a checkpoint, not left at its largest
  db.pragma(`journal_size_limit = ${CHECKPOINT_BYTES}`);
  if (maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.floor(maxPageCount)}`);
}

/**
 * Gives an older file of this schema what was added since: the inputs' `currency` and `locale`, the
 * jobs' `follow_up`, and the index by owner in place of the one by subject.
 */
function addSinceVersion(db: Database.Database): void {
  for (const column of ["currency", "locale"])
    if (!columnsOf(db, "inputs").includes(column)) db.exec(`ALTER TABLE inputs ADD COLUMN ${column} TEXT`);
  if (!columnsOf(db, "jobs").includes("follow_up")) db.exec("ALTER TABLE jobs ADD COLUMN follow_up INTEGER");
  db.exec(
    "CREATE INDEX IF NOT EXISTS jobs_by_owner ON jobs (subject, created_at, job_id); DROP INDEX IF EXISTS jobs_by_subject",
  );
}

const columnsOf = (db: Database.Database, table: string) =>
  db.prepare<[string], string>("SELECT name FROM pragma_table_info(?)").pluck().all(table);

/** Drops the tables of another schema and makes this one's; the version is written last, so a stop halfway is redone. */
function makeAnew(db: Database.Database): void {
  const tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";
  for (const table of db.prepare<[], string>(tables).pluck().all())
    db.exec(`DROP TABLE "${table.replaceAll('"', '""')}"`);
  // freed pages go back to the disk at each incremental_vacuum; this is set before the first
  // table, and a file written without it is rebuilt once
  if (readPragma(db, "auto_vacuum") !== 2) {
    db.pragma("auto_vacuum = INCREMENTAL");
    if (readPragma(db, "page_count") > 0) db.exec("VACUUM");
  }
  db.transaction(() => {
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
