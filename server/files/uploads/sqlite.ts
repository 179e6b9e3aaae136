/**
 * Uploads in a SQLite file of their own (better-sqlite3, WAL), apart from the job database: a row
 * per upload and a row per chunk as it arrives, so a file is never held whole in memory until it
 * is read. Every call is one transaction; abandoned rows read as gone at once and are deleted by
 * `sweep`, which gives the freed pages back to the disk.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { asStorageFull } from "../../jobs/stores/sqlite-errors.js";
import {
  MissingChunksError,
  UploadQuotaError,
  checkChunk,
  checkWhole,
  chunkCountOf,
  missingChunks,
  newUploadId,
  resolveUploadOptions,
  type Upload,
  type UploadFile,
  type UploadStore,
  type UploadStoreOptions,
} from "./upload-store.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS uploads (
  upload_id TEXT PRIMARY KEY, owner TEXT NOT NULL, name TEXT NOT NULL, size INTEGER NOT NULL,
  sha256 TEXT NOT NULL, chunk_bytes INTEGER NOT NULL, chunks INTEGER NOT NULL,
  verified INTEGER NOT NULL DEFAULT 0, touched_at INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS uploads_by_file ON uploads (owner, name, size, sha256);
CREATE INDEX IF NOT EXISTS uploads_by_touch ON uploads (touched_at);
CREATE TABLE IF NOT EXISTS upload_chunks (
  upload_id TEXT NOT NULL, idx INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (upload_id, idx));
`;
type Row = {
  upload_id: string;
  owner: string;
  name: string;
  size: number;
  sha256: string;
  chunk_bytes: number;
  chunks: number;
  verified: number;
  touched_at: number;
};

/** Opens (and creates, with its directory) the database at `path`, with its tables. */
function openUploadDatabase(path: string): Database.Database {
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
  return db;
}

/** Every statement the store runs, prepared once. */
function prepareStatements(db: Database.Database) {
  return {
    byFile: db.prepare<[string, string, number, string], Row>(
      "SELECT * FROM uploads WHERE owner = ? AND name = ? AND size = ? AND sha256 = ?",
    ),
    get: db.prepare<[string, string], Row>("SELECT * FROM uploads WHERE upload_id = ? AND owner = ?"),
    insert: db.prepare(
      "INSERT INTO uploads (upload_id, owner, name, size, sha256, chunk_bytes, chunks, touched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    touch: db.prepare("UPDATE uploads SET touched_at = ? WHERE upload_id = ?"),
    touchUnverified: db.prepare("UPDATE uploads SET touched_at = ?, verified = 0 WHERE upload_id = ?"),
    verified: db.prepare("UPDATE uploads SET verified = 1 WHERE upload_id = ?"),
    received: db.prepare<[string], number>("SELECT idx FROM upload_chunks WHERE upload_id = ? ORDER BY idx").pluck(),
    putChunk: db.prepare("INSERT OR REPLACE INTO upload_chunks (upload_id, idx, bytes) VALUES (?, ?, ?)"),
    chunks: db.prepare<[string], Buffer>("SELECT bytes FROM upload_chunks WHERE upload_id = ? ORDER BY idx").pluck(),
    bytesOf: db
      .prepare<[string, number], number>(
        "SELECT coalesce(sum(size), 0) FROM uploads WHERE owner = ? AND touched_at > ?",
      )
      .pluck(),
    abandoned: db.prepare<[number], string>("SELECT upload_id FROM uploads WHERE touched_at <= ?").pluck(),
    dropChunks: db.prepare("DELETE FROM upload_chunks WHERE upload_id = ?"),
    dropUpload: db.prepare("DELETE FROM uploads WHERE upload_id = ?"),
  };
}

/**
 * The store's methods are arrow-function properties: bound, and own properties, so a test may
 * spread a store to replace one of them. Each write is one transaction (see `#transaction`).
 */
class SqliteUploadStore implements UploadStore {
  readonly #db: Database.Database;
  readonly #q: ReturnType<typeof prepareStatements>;
  readonly #options: Required<UploadStoreOptions>;

  constructor(db: Database.Database, options: Required<UploadStoreOptions>) {
    this.#db = db;
    this.#q = prepareStatements(db);
    this.#options = options;
  }

  readonly begin: UploadStore["begin"] = async (owner, file, maxBytes) =>
    this.#transaction(() => this.#begin(owner, file, maxBytes));

  readonly get: UploadStore["get"] = async (owner, uploadId) => {
    const row = this.#live(owner, uploadId);
    return row && this.#toUpload(row);
  };

  readonly put: UploadStore["put"] = async (owner, uploadId, index, bytes) =>
    this.#transaction(() => {
      const row = this.#live(owner, uploadId);
      if (row === undefined) return undefined;
      checkChunk({ size: row.size, chunks: row.chunks, chunkBytes: row.chunk_bytes }, index, bytes.length);
      this.#q.putChunk.run(uploadId, index, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      this.#q.touchUnverified.run(this.#options.now(), uploadId);
      return this.#toUpload(this.#q.get.get(uploadId, owner)!);
    });

  readonly read: UploadStore["read"] = async (owner, uploadId) => {
    const bytes = this.#transaction(() => this.#read(owner, uploadId));
    if (bytes instanceof Error) throw bytes;
    return bytes;
  };

  readonly touch: UploadStore["touch"] = async (owner, uploadId) =>
    this.#transaction(() => {
      const row = this.#live(owner, uploadId);
      if (row) this.#q.touch.run(this.#options.now(), uploadId);
      return row !== undefined;
    });

  readonly drop: UploadStore["drop"] = async (owner, uploadId) =>
    this.#transaction(() => this.#live(owner, uploadId) !== undefined && this.#remove(uploadId));

  readonly bytesOf: UploadStore["bytesOf"] = async (owner) => this.#q.bytesOf.get(owner, this.#cutoff())!;

  readonly sweep: UploadStore["sweep"] = async () => {
    const swept = this.#transaction(() => this.#q.abandoned.all(this.#cutoff()).filter(this.#remove).length);
    if (swept > 0) this.#db.pragma("incremental_vacuum");
    return swept;
  };

  readonly close: UploadStore["close"] = async () => {
    if (this.#db.open) this.#db.close();
  };

  #begin(owner: string, { name, size, sha256 }: UploadFile, maxBytes: number | undefined): Upload {
    const { now, chunkBytes } = this.#options;
    const known = this.#q.byFile.get(owner, name, size, sha256);
    if (known !== undefined && known.touched_at > this.#cutoff()) {
      this.#q.touch.run(now(), known.upload_id);
      return this.#toUpload(this.#q.get.get(known.upload_id, owner)!);
    }
    if (known) this.#remove(known.upload_id); // abandoned, not yet swept: it holds the file's place
    const kept = this.#q.bytesOf.get(owner, this.#cutoff())!;
    if (maxBytes !== undefined && kept + size > maxBytes) throw new UploadQuotaError(kept);
    const uploadId = newUploadId();
    this.#q.insert.run(uploadId, owner, name, size, sha256, chunkBytes, chunkCountOf(size, chunkBytes), now());
    return this.#toUpload(this.#q.get.get(uploadId, owner)!);
  }

  /** The whole file; a failed check is returned, not thrown, so that the drop commits. */
  #read(owner: string, uploadId: string): Buffer | Error | undefined {
    const row = this.#live(owner, uploadId);
    if (row === undefined) return undefined;
    this.#q.touch.run(this.#options.now(), uploadId);
    const missing = missingChunks(row.chunks, this.#q.received.all(uploadId));
    if (missing.length > 0) throw new MissingChunksError(missing);
    const bytes = Buffer.concat(this.#q.chunks.all(uploadId));
    if (row.verified === 0) {
      try {
        checkWhole(row, bytes);
      } catch (error) {
        this.#remove(uploadId);
        return error as Error;
      }
      this.#q.verified.run(uploadId);
    }
    return bytes;
  }

  #cutoff(): number {
    return this.#options.now() - this.#options.abandonedAfterMs;
  }

  /** The owner's upload when it is still kept. */
  #live(owner: string, uploadId: string): Row | undefined {
    const row = this.#q.get.get(uploadId, owner);
    return row !== undefined && row.touched_at > this.#cutoff() ? row : undefined;
  }

  #toUpload(r: Row): Upload {
    return {
      uploadId: r.upload_id,
      owner: r.owner,
      name: r.name,
      size: r.size,
      sha256: r.sha256,
      chunkBytes: r.chunk_bytes,
      chunks: r.chunks,
      received: this.#q.received.all(r.upload_id),
      verified: r.verified === 1,
      touchedAt: r.touched_at,
    };
  }

  readonly #remove = (uploadId: string): boolean => {
    this.#q.dropChunks.run(uploadId);
    return this.#q.dropUpload.run(uploadId).changes > 0;
  };

  /** Runs `run` as one transaction; a full disk becomes the StorageFullError whose sentence a caller can read. */
  #transaction<T>(run: () => T): T {
    try {
      return this.#db.transaction(run)();
    } catch (error) {
      throw asStorageFull(error);
    }
  }
}

/** Opens (and creates, with its directory) the upload database at `path`. */
export function createSqliteUploadStore(path: string, options?: UploadStoreOptions): UploadStore {
  return new SqliteUploadStore(openUploadDatabase(path), resolveUploadOptions(options));
}
