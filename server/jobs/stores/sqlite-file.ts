/**
 * The SQLite job store's file: opened with the store's settings (small pages, WAL, incremental
 * auto-vacuum, checkpoints every few megabytes) and its tables. The file says which schema wrote
 * it (`PRAGMA user_version`); a file of another schema is emptied and made anew rather than
 * migrated, since the jobs it holds are a day old at most. What was added to this schema since it
 * got its version (columns, an index) is added to an older file of it in place.
 */
import Database from "better-sqlite3";

/** The schema below; raised with every change to it, so that a file of the old one is made anew. */
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
/** WAL bytes between two checkpoints, whatever the page size. */
const CHECKPOINT_BYTES = 4 * 1024 * 1024;

export type SqliteStoreOptions = {
  /** Caps the file at this many pages, as a full disk would (for tests). */
  maxPageCount?: number;
  /** The page size of a new file (a file keeps the one it was made with); 4 KB by default. */
  pageSize?: number;
};

/** Opens the file with this store's settings and tables; closed again when that fails (a full disk). */
export function openDatabase(
  path: string,
  { maxPageCount, pageSize = PAGE_SIZE }: SqliteStoreOptions,
): Database.Database {
  const db = new Database(path);
  try {
    // only takes effect on a new file
    db.pragma(`page_size = ${Math.floor(pageSize)}`);
    if (db.pragma("user_version", { simple: true }) !== SCHEMA_VERSION) makeAnew(db);
    addMoneyColumns(db);
    addFollowUps(db);
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
 * Gives a file written before jobs had a currency its inputs' `currency` and `locale` columns (null:
 * US dollars, no language known), so the jobs it holds keep running rather than the file being made anew.
 */
function addMoneyColumns(db: Database.Database): void {
  for (const column of ["currency", "locale"])
    if (!columnsOf(db, "inputs").includes(column)) db.exec(`ALTER TABLE inputs ADD COLUMN ${column} TEXT`);
}

/**
 * Gives a file written before jobs could be listed and their follow-ups claimed the jobs'
 * `follow_up` column (null: not claimed) and the index that lists an owner's jobs newest first,
 * which takes the place of the one by subject and creation time alone.
 */
function addFollowUps(db: Database.Database): void {
  if (!columnsOf(db, "jobs").includes("follow_up")) db.exec("ALTER TABLE jobs ADD COLUMN follow_up INTEGER");
  db.exec(
    "CREATE INDEX IF NOT EXISTS jobs_by_owner ON jobs (subject, created_at, job_id); DROP INDEX IF EXISTS jobs_by_subject",
  );
}

const columnsOf = (db: Database.Database, table: string) =>
  db.prepare<[string], string>("SELECT name FROM pragma_table_info(?)").pluck().all(table);

/**
 * Drops the tables of another schema and makes this one's. The schema version is written last, so
 * a process stopped halfway does it again at the next start.
 */
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
