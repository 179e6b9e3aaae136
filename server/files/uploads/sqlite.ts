/**
 * Uploads in a SQLite file of their own (better-sqlite3, WAL), apart from the job database: a row
 * per upload and one per chunk, so a file is never held whole in memory until it is read; each step
 * one transaction, `sweep` giving the pages back. The memory store is this one on a database in memory.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { asStorageFull } from "../../store-errors.js";
import {
  createUploadStore,
  resolveUploadOptions,
  type Upload,
  type UploadStorage,
  type UploadStore,
  type UploadStoreOptions,
} from "./upload-store.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS uploads (
  upload_id TEXT PRIMARY KEY, owner TEXT NOT NULL, name TEXT NOT NULL, size INTEGER NOT NULL,
  sha256 TEXT NOT NULL, chunk_bytes INTEGER NOT NULL, chunks INTEGER NOT NULL,
  verified INTEGER NOT NULL DEFAULT 0, touched_at INTEGER NOT NULL,
  received_bytes INTEGER NOT NULL DEFAULT 0, kept_until INTEGER NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX IF NOT EXISTS uploads_by_file ON uploads (owner, name, size, sha256);
CREATE TABLE IF NOT EXISTS upload_chunks (
  upload_id TEXT NOT NULL, idx INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (upload_id, idx));
`;
type Row = Omit<Upload, "received" | "verified"> & { received: string; verified: number };
/** A row as an `Upload` (`received` comes as a JSON array). */
const toUpload = (r: Row): Upload => ({ ...r, received: JSON.parse(r.received) as number[], verified: !!r.verified });

/** Gives a file made before `received_bytes` and `kept_until` (the first version) the columns. */
function addKeepColumns(db: Database.Database, abandonedAfterMs: number, stalledAfterMs: number): void {
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('uploads')").all();
  if (columns.some((c) => c.name === "kept_until")) return;
  db.exec(`
    ALTER TABLE uploads ADD COLUMN received_bytes INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE uploads ADD COLUMN kept_until INTEGER NOT NULL DEFAULT 0;
    UPDATE uploads SET received_bytes =
      (SELECT coalesce(sum(length(bytes)), 0) FROM upload_chunks c WHERE c.upload_id = uploads.upload_id);
    UPDATE uploads SET kept_until = touched_at + CASE WHEN received_bytes = size
      THEN ${Math.trunc(abandonedAfterMs)} ELSE ${Math.trunc(stalledAfterMs)} END;`);
}

function openUploadDatabase(path: string, options: Required<UploadStoreOptions>): Database.Database {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // small pages, as the job store has, so a fresh file and its journal fit a small volume; a 256 KB
  // chunk spans its pages without harm (only takes effect on a new file)
  db.pragma("page_size = 4096");
  if (db.pragma("auto_vacuum", { simple: true }) !== 2) db.pragma("auto_vacuum = INCREMENTAL");
  for (const pragma of ["journal_mode = WAL", "synchronous = NORMAL", "busy_timeout = 5000"]) db.pragma(pragma);
  db.exec(SCHEMA);
  db.transaction(() => addKeepColumns(db, options.abandonedAfterMs, options.stalledAfterMs))();
  db.exec("CREATE INDEX IF NOT EXISTS uploads_by_keep ON uploads (kept_until)");
  return db;
}

/** Keeps uploads in `db`; `now` stamps `touched_at`. */
function sqliteStorage(db: Database.Database, now: () => number): UploadStorage {
  const q = {
    owned: db.prepare<[string], Row>(
      `SELECT upload_id AS uploadId, owner, name, size, sha256, chunk_bytes AS chunkBytes, chunks, verified,
        received_bytes AS receivedBytes, kept_until AS keptUntil, (SELECT json_group_array(idx ORDER BY idx)
          FROM upload_chunks c WHERE c.upload_id = u.upload_id) AS received FROM uploads u WHERE owner = ?`,
    ),
    save: db.prepare(
      `INSERT OR REPLACE INTO uploads (upload_id, owner, name, size, sha256, chunk_bytes, chunks, verified, touched_at,
        received_bytes, kept_until) VALUES (@uploadId, @owner, @name, @size, @sha256, @chunkBytes, @chunks, @verified,
        @touchedAt, @receivedBytes, @keptUntil)`,
    ),
    putChunk: db.prepare("INSERT OR REPLACE INTO upload_chunks (upload_id, idx, bytes) VALUES (?, ?, ?)"),
    chunks: db.prepare<[string], Buffer>("SELECT bytes FROM upload_chunks WHERE upload_id = ? ORDER BY idx").pluck(),
    lapsed: db.prepare<[number], string>("SELECT upload_id FROM uploads WHERE kept_until <= ?").pluck(),
    dropChunks: db.prepare("DELETE FROM upload_chunks WHERE upload_id = ?"),
    dropUpload: db.prepare("DELETE FROM uploads WHERE upload_id = ?"),
  };
  const remove = (uploadId: string): boolean => {
    q.dropChunks.run(uploadId);
    return q.dropUpload.run(uploadId).changes > 0;
  };
  /** Runs `run` as one transaction; a full disk becomes a StorageFullError. */
  const transaction = <T>(run: () => T): T => {
    try {
      return db.transaction(run)();
    } catch (error) {
      throw asStorageFull(error);
    }
  };
  return {
    transact: async (owner, decide, chunksOf) =>
      transaction(() => {
        const uploads = q.owned.all(owner).map(toUpload);
        const chunks = uploads.some((u) => u.uploadId === chunksOf) ? q.chunks.all(chunksOf!) : [];
        const [value, ...changes] = decide(uploads, chunks);
        for (const change of changes) {
          if ("remove" in change) remove(change.remove);
          else if ("chunk" in change) q.putChunk.run(change.uploadId, change.index, change.chunk);
          else q.save.run({ ...change.save, verified: Number(change.save.verified), touchedAt: now() });
        }
        return value;
      }),
    sweep: async (at) => {
      const swept = transaction(() => q.lapsed.all(at).filter(remove).length);
      if (swept > 0) db.pragma("incremental_vacuum");
      return swept;
    },
    close: async () => {
      if (db.open) db.close();
    },
  };
}

/** Opens (and creates, with its directory) the upload database at `path`. */
export function createSqliteUploadStore(path: string, options?: UploadStoreOptions): UploadStore {
  const resolved = resolveUploadOptions(options);
  return createUploadStore(sqliteStorage(openUploadDatabase(path, resolved), resolved.now), resolved);
}

/** Uploads in memory (tests, a server without a disk). */
export const createMemoryUploadStore = (options?: UploadStoreOptions): UploadStore =>
  createSqliteUploadStore(":memory:", options);
