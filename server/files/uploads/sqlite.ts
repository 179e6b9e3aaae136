/**
 * Uploads in a SQLite file of their own (better-sqlite3, WAL), apart from the job database: a row
 * per upload and one per chunk, so a file is never held whole in memory until it is read. Rows
 * past their `kept_until` read as gone at once; `sweep` deletes them and gives the pages back. The
 * memory store is this one on a database in memory, so the two keep one set of rules.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { asStorageFull } from "../../store-errors.js";
import {
  UploadQuotaError,
  checkChunk,
  checkComplete,
  corruption,
  chunkCountOf,
  chunkLength,
  newUploadId,
  RESERVE_AHEAD_CHUNKS,
  reservedBytes,
  resolveUploadOptions,
  type Upload,
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
type Row = Omit<Upload, "received" | "verified"> & { verified: number };
const ROW = `SELECT upload_id AS uploadId, owner, name, size, sha256, chunk_bytes AS chunkBytes, chunks, verified,
  received_bytes AS receivedBytes, kept_until AS keptUntil FROM uploads`;

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
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.exec(SCHEMA);
  db.transaction(() => addKeepColumns(db, options.abandonedAfterMs, options.stalledAfterMs))();
  db.exec("CREATE INDEX IF NOT EXISTS uploads_by_keep ON uploads (kept_until)");
  return db;
}

function prepareStatements(db: Database.Database) {
  return {
    byFile: db.prepare<[string, string, number, string], Row>(
      `${ROW} WHERE owner = ? AND name = ? AND size = ? AND sha256 = ?`,
    ),
    get: db.prepare<[string, string], Row>(`${ROW} WHERE upload_id = ? AND owner = ?`),
    insert: db.prepare(
      "INSERT INTO uploads (upload_id, owner, name, size, sha256, chunk_bytes, chunks, touched_at, kept_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    keep: db.prepare("UPDATE uploads SET touched_at = ?, kept_until = ? WHERE upload_id = ?"),
    progress: db.prepare(
      "UPDATE uploads SET touched_at = ?, kept_until = ?, received_bytes = ?, verified = 0 WHERE upload_id = ?",
    ),
    verified: db.prepare("UPDATE uploads SET verified = 1 WHERE upload_id = ?"),
    received: db.prepare<[string], number>("SELECT idx FROM upload_chunks WHERE upload_id = ? ORDER BY idx").pluck(),
    hasChunk: db
      .prepare<[string, number], number>("SELECT 1 FROM upload_chunks WHERE upload_id = ? AND idx = ?")
      .pluck(),
    putChunk: db.prepare("INSERT OR REPLACE INTO upload_chunks (upload_id, idx, bytes) VALUES (?, ?, ?)"),
    chunks: db.prepare<[string], Buffer>("SELECT bytes FROM upload_chunks WHERE upload_id = ? ORDER BY idx").pluck(),
    /** `reservedBytes` of the owner's kept uploads but one. */
    bytesOf: db
      .prepare<[number, string, number, string], number>(
        "SELECT coalesce(sum(received_bytes + min(size - received_bytes, ? * chunk_bytes)), 0) FROM uploads " +
          "WHERE owner = ? AND kept_until > ? AND upload_id != ?",
      )
      .pluck(),
    abandoned: db.prepare<[number], string>("SELECT upload_id FROM uploads WHERE kept_until <= ?").pluck(),
    dropChunks: db.prepare("DELETE FROM upload_chunks WHERE upload_id = ?"),
    dropUpload: db.prepare("DELETE FROM uploads WHERE upload_id = ?"),
  };
}

class SqliteUploadStore implements UploadStore {
  readonly #q: ReturnType<typeof prepareStatements>;

  constructor(
    private readonly db: Database.Database,
    private readonly options: Required<UploadStoreOptions>,
  ) {
    this.#q = prepareStatements(db);
  }

  readonly begin: UploadStore["begin"] = async (owner, { name, size, sha256 }, maxBytes) =>
    this.#transaction(() => {
      const { now, chunkBytes } = this.options;
      const known = this.#q.byFile.get(owner, name, size, sha256);
      if (known !== undefined && known.keptUntil > now()) {
        this.#used(known);
        return this.#toUpload(this.#q.get.get(known.uploadId, owner)!);
      }
      if (known) this.#remove(known.uploadId); // gone, not yet swept: it holds the file's place
      this.#checkRoom(owner, "", reservedBytes({ size, receivedBytes: 0, chunkBytes }), maxBytes);
      const uploadId = newUploadId();
      const chunks = chunkCountOf(size, chunkBytes);
      this.#q.insert.run(uploadId, owner, name, size, sha256, chunkBytes, chunks, now(), this.#keptUntil(false));
      return this.#toUpload(this.#q.get.get(uploadId, owner)!);
    });

  readonly get: UploadStore["get"] = async (owner, uploadId) => {
    const row = this.#live(owner, uploadId);
    return row && this.#toUpload(row);
  };

  readonly put: UploadStore["put"] = async (owner, uploadId, index, bytes, maxBytes) =>
    this.#transaction(() => {
      const row = this.#live(owner, uploadId);
      if (row === undefined) return undefined;
      checkChunk(row, index, bytes.length);
      const isNew = this.#q.hasChunk.get(uploadId, index) === undefined;
      const receivedBytes = row.receivedBytes + (isNew ? chunkLength(row, index) : 0);
      const wanted = reservedBytes({ ...row, receivedBytes });
      // a chunk sent again takes no more room: it is never refused for room
      if (wanted > reservedBytes(row)) {
        this.#checkRoom(owner, uploadId, wanted, maxBytes);
      }
      this.#q.putChunk.run(uploadId, index, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      const keptUntil = this.#keptUntil(receivedBytes === row.size);
      this.#q.progress.run(this.options.now(), keptUntil, receivedBytes, uploadId);
      return this.#toUpload(this.#q.get.get(uploadId, owner)!);
    });

  readonly read: UploadStore["read"] = async (owner, uploadId) => {
    // a failed check is returned, not thrown, so that the drop commits
    const bytes = this.#transaction((): Buffer | Error | undefined => {
      const row = this.#live(owner, uploadId);
      if (row === undefined) return undefined;
      this.#used(row);
      checkComplete(row.chunks, this.#q.received.all(uploadId));
      const whole = Buffer.concat(this.#q.chunks.all(uploadId));
      if (row.verified === 0) {
        const corrupt = corruption(row, whole);
        if (corrupt) {
          this.#remove(uploadId);
          return corrupt;
        }
        this.#q.verified.run(uploadId);
      }
      return whole;
    });
    if (bytes instanceof Error) throw bytes;
    return bytes;
  };

  readonly touch: UploadStore["touch"] = async (owner, uploadId) =>
    this.#transaction(() => {
      const row = this.#live(owner, uploadId);
      if (row) this.#used(row);
      return row !== undefined;
    });

  readonly drop: UploadStore["drop"] = async (owner, uploadId) =>
    this.#transaction(() => this.#live(owner, uploadId) !== undefined && this.#remove(uploadId));

  readonly bytesOf: UploadStore["bytesOf"] = async (owner) => this.#bytesOf(owner, "");

  readonly sweep: UploadStore["sweep"] = async () => {
    const swept = this.#transaction(() => this.#q.abandoned.all(this.options.now()).filter(this.#remove).length);
    if (swept > 0) this.db.pragma("incremental_vacuum");
    return swept;
  };

  readonly close: UploadStore["close"] = async () => {
    if (this.db.open) this.db.close();
  };

  #keptUntil(whole: boolean): number {
    const { now, abandonedAfterMs, stalledAfterMs } = this.options;
    return now() + (whole ? abandonedAfterMs : stalledAfterMs);
  }

  /** Notes a use of `row` (a resume, a read, a job): only a whole upload is kept longer. */
  #used(row: Row): void {
    const now = this.options.now();
    const kept = row.receivedBytes === row.size ? Math.max(row.keptUntil, this.#keptUntil(true)) : row.keptUntil;
    this.#q.keep.run(now, kept, row.uploadId);
  }

  #bytesOf(owner: string, except: string): number {
    return this.#q.bytesOf.get(RESERVE_AHEAD_CHUNKS, owner, this.options.now(), except)!;
  }

  /** Throws `UploadQuotaError` when `owner`'s uploads but `except`, and `wanted`, pass `maxBytes`. */
  #checkRoom(owner: string, except: string, wanted: number, maxBytes: number | undefined): void {
    if (maxBytes === undefined) return;
    const kept = this.#bytesOf(owner, except);
    if (kept + wanted > maxBytes) throw new UploadQuotaError(kept, wanted);
  }

  #live(owner: string, uploadId: string): Row | undefined {
    const row = this.#q.get.get(uploadId, owner);
    return row !== undefined && row.keptUntil > this.options.now() ? row : undefined;
  }

  #toUpload(r: Row): Upload {
    return { ...r, received: this.#q.received.all(r.uploadId), verified: r.verified === 1 };
  }

  readonly #remove = (uploadId: string): boolean => {
    this.#q.dropChunks.run(uploadId);
    return this.#q.dropUpload.run(uploadId).changes > 0;
  };

  /** Runs `run` as one transaction; a full disk becomes a StorageFullError. */
  #transaction<T>(run: () => T): T {
    try {
      return this.db.transaction(run)();
    } catch (error) {
      throw asStorageFull(error);
    }
  }
}

/** Opens (and creates, with its directory) the upload database at `path`. */
export function createSqliteUploadStore(path: string, options?: UploadStoreOptions): UploadStore {
  const resolved = resolveUploadOptions(options);
  return new SqliteUploadStore(openUploadDatabase(path, resolved), resolved);
}

/** Uploads in memory (tests, a server without a disk). */
export const createMemoryUploadStore = (options?: UploadStoreOptions): UploadStore =>
  createSqliteUploadStore(":memory:", options);
