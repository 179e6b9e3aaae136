/**
 * The SQLite job store's file, its settings and tables. A file of another schema (`user_version`)
 * is made anew rather than migrated: its jobs are a day old at most. What was added to this schema
 * since it got its version is added to an older file of it in place.
 */
import Database from "better-sqlite3";

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

export type SqliteStoreOptions = {
  /** Caps the file at this many pages, as a full disk would (for tests). */
  maxPageCount?: number;
};

/** Opens the file with this store's settings and tables; closed again when that fails. */
export function openDatabase(path: string, { maxPageCount }: SqliteStoreOptions): Database.Database {
  const db = new Database(path);
  try {
    // only takes effect on a new file
    db.pragma(`page_size = ${PAGE_SIZE}`);
    if (db.pragma("user_version", { simple: true }) !== SCHEMA_VERSION) makeAnew(db);
    addSinceVersion(db);
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
    if (maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.floor(maxPageCount)}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
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
  const tables = db
    .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all();
  for (const table of tables) db.exec(`DROP TABLE "${table.replaceAll('"', '""')}"`);
  // freed pages go back to the disk at each incremental_vacuum; this is set before the first
  // table, and a file written without it is rebuilt once
  if (db.pragma("auto_vacuum", { simple: true }) !== 2) {
    db.pragma("auto_vacuum = INCREMENTAL");
    if ((db.pragma("page_count", { simple: true }) as number) > 0) db.exec("VACUUM");
  }
  db.transaction(() => {
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
