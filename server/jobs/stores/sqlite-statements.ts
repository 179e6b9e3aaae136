/** Every statement the SQLite job store runs, prepared once, by the table they work on. */
import type Database from "better-sqlite3";

type Statement<P extends unknown[], R> = {
  run(...params: P): Database.RunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
};
type Db = Database.Database;

const prepare = <P extends unknown[] = unknown[], R = unknown>(db: Db, sql: string): Statement<P, R> =>
  db.prepare<P, R>(sql);
/** A statement that answers with the first column of each row alone. */
const pluck = <P extends unknown[], R>(db: Db, sql: string): Statement<P, R> => db.prepare<P, R>(sql).pluck();

const UNFINISHED = "status IN ('pending', 'running')";

export type JobRow = {
  job_id: string;
  subject: string;
  session_id: string | null;
  status: string;
  created_at: number;
  last_seq: number;
  fold: string;
};
const JOB_COLUMNS = "job_id, subject, session_id, status, created_at, last_seq, fold";

function jobStatements(db: Db) {
  return {
    insert: prepare(db, `INSERT INTO jobs (${JOB_COLUMNS}, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    get: prepare<[string], JobRow>(db, `SELECT ${JOB_COLUMNS} FROM jobs WHERE job_id = ?`),
    lastSeq: pluck<[string], number>(db, "SELECT last_seq FROM jobs WHERE job_id = ?"),
    status: pluck<[string], string>(db, "SELECT status FROM jobs WHERE job_id = ?"),
    update: prepare(db, "UPDATE jobs SET status = ?, last_seq = ?, fold = ? WHERE job_id = ?"),
    unfinished: prepare<[], JobRow>(db, `SELECT ${JOB_COLUMNS} FROM jobs WHERE ${UNFINISHED} ORDER BY created_at`),
    expired: pluck<[number], string>(db, `SELECT job_id FROM jobs WHERE created_at < ? AND NOT ${UNFINISHED}`),
    // both walk the index by owner, creation time and job id backwards, from where the page starts
    newest: prepare<[string, number], JobRow>(
      db,
      `SELECT ${JOB_COLUMNS} FROM jobs WHERE subject = ? ORDER BY created_at DESC, job_id DESC LIMIT ?`,
    ),
    olderThan: prepare<[string, number, string, number], JobRow>(
      db,
      `SELECT ${JOB_COLUMNS} FROM jobs WHERE subject = ? AND (created_at, job_id) < (?, ?) ORDER BY created_at DESC, job_id DESC LIMIT ?`,
    ),
    claimFollowUp: prepare<[string], unknown>(
      db,
      `UPDATE jobs SET follow_up = 1 WHERE job_id = ? AND follow_up IS NULL AND NOT ${UNFINISHED}`,
    ),
    /** Everything a job owns, its row last. */
    deletes: ["events", "result_chunks", "results", "inputs", "jobs"].map((t) =>
      prepare(db, `DELETE FROM ${t} WHERE job_id = ?`),
    ),
  };
}

export function prepareStatements(db: Db) {
  return {
    jobs: jobStatements(db),
    inputs: {
      insert: prepare(
        db,
        "INSERT INTO inputs (job_id, occasion, budget_per_person, csv, employees, currency, locale) VALUES (@jobId, @occasion, @budgetPerPerson, @csv, @employees, @currency, @locale)",
      ),
      // currency is null in rows written before jobs had one (US dollars), locale when none was known
      read: prepare<[string], Record<string, string | number | null>>(
        db,
        `SELECT i.occasion, i.budget_per_person AS budgetPerPerson, i.csv, i.employees, i.currency, i.locale FROM inputs i JOIN jobs j USING (job_id) WHERE job_id = ? AND j.${UNFINISHED}`,
      ),
      bytes: pluck<[string], number>(
        db,
        "SELECT coalesce(length(CAST(csv AS BLOB)), 0) + coalesce(length(CAST(employees AS BLOB)), 0) FROM inputs WHERE job_id = ?",
      ),
      drop: prepare(db, "DELETE FROM inputs WHERE job_id = ?"),
    },
    events: {
      insert: prepare(db, "INSERT INTO events (job_id, seq, body) VALUES (?, ?, ?)"),
      read: pluck<[string, number, number], string>(
        db,
        "SELECT body FROM events WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?",
      ),
    },
    results: {
      insertHead: prepare(db, "INSERT INTO results (job_id, head) VALUES (?, ?)"),
      readHead: pluck<[string], string>(db, "SELECT head FROM results WHERE job_id = ?"),
      hasHead: pluck<[string], number>(db, "SELECT 1 FROM results WHERE job_id = ?"),
      insertChunk: prepare(db, "INSERT INTO result_chunks (job_id, idx, body) VALUES (?, ?, ?)"),
      // chunks are contiguous from 0 (see putResultChunk), so the next index is also how many there are
      nextChunk: pluck<[string], number>(db, "SELECT coalesce(max(idx) + 1, 0) FROM result_chunks WHERE job_id = ?"),
      chunkBytes: pluck<[string], number>(
        db,
        "SELECT coalesce(sum(length(CAST(body AS BLOB))), 0) FROM result_chunks WHERE job_id = ?",
      ),
      dropChunks: prepare(db, "DELETE FROM result_chunks WHERE job_id = ?"),
      readChunks: pluck<[string, number, number, string], string>(
        db,
        "SELECT body FROM result_chunks WHERE job_id = ? AND idx >= ? AND idx < ? AND EXISTS (SELECT 1 FROM results WHERE job_id = ?) ORDER BY idx",
      ),
      readComposed: pluck<[string, number, number, string], string>(
        db,
        "SELECT body FROM result_chunks WHERE job_id = ? AND idx >= ? AND idx < ? AND NOT EXISTS (SELECT 1 FROM results WHERE job_id = ?) ORDER BY idx",
      ),
    },
    usage: {
      addBytes: prepare(db, "UPDATE jobs SET bytes = bytes + ? WHERE job_id = ?"),
      ofJobs: prepare<[string], { unfinished: number; bytes: number }>(
        db,
        `SELECT coalesce(sum(${UNFINISHED}), 0) AS unfinished, coalesce(sum(bytes), 0) AS bytes FROM jobs WHERE subject = ?`,
      ),
      insertStart: prepare(db, "INSERT INTO starts (subject, created_at) VALUES (?, ?)"),
      trimStarts: prepare(db, "DELETE FROM starts WHERE subject = ? AND created_at < ?"),
      startsSince: prepare<[string, number], { n: number; first: number | null }>(
        db,
        "SELECT count(*) AS n, min(created_at) AS first FROM starts WHERE subject = ? AND created_at >= ?",
      ),
    },
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
