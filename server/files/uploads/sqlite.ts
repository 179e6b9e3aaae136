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

/** Opens (and creates, with its directory) the upload database at `path`. */
export function createSqliteUploadStore(path: string, options?: UploadStoreOptions): UploadStore {
  const { now, abandonedAfterMs, chunkBytes } = resolveUploadOptions(options);
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
  const q = {
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
  const cutoff = () => now() - abandonedAfterMs;
  const live = (row: Row | undefined) => (row !== undefined && row.touched_at > cutoff() ? row : undefined);
  const toUpload = (r: Row): Upload => ({
    uploadId: r.upload_id,
    owner: r.owner,
    name: r.name,
    size: r.size,
    sha256: r.sha256,
    chunkBytes: r.chunk_bytes,
    chunks: r.chunks,
    received: q.received.all(r.upload_id),
    verified: r.verified === 1,
    touchedAt: r.touched_at,
  });
  const remove = (uploadId: string) => {
    q.dropChunks.run(uploadId);
    return q.dropUpload.run(uploadId).changes > 0;
  };
  /** Runs a write as one transaction; a full disk becomes the StorageFullError whose sentence a caller can read. */
  const transaction = <A extends unknown[], T>(run: (...args: A) => T) => {
    const t = db.transaction(run);
    return (...args: A): T => {
      try {
        return t(...args);
      } catch (error) {
        throw asStorageFull(error);
      }
    };
  };

  const begin = transaction((owner: string, { name, size, sha256 }: UploadFile, maxBytes?: number) => {
    const known = q.byFile.get(owner, name, size, sha256);
    if (live(known)) {
      q.touch.run(now(), known!.upload_id);
      return toUpload(q.get.get(known!.upload_id, owner)!);
    }
    if (known) remove(known.upload_id); // abandoned, not yet swept: it holds the file's place
    const kept = q.bytesOf.get(owner, cutoff())!;
    if (maxBytes !== undefined && kept + size > maxBytes) throw new UploadQuotaError(kept);
    const uploadId = newUploadId();
    q.insert.run(uploadId, owner, name, size, sha256, chunkBytes, chunkCountOf(size, chunkBytes), now());
    return toUpload(q.get.get(uploadId, owner)!);
  });
  const put = transaction((owner: string, uploadId: string, index: number, bytes: Uint8Array) => {
    const row = live(q.get.get(uploadId, owner));
    if (row === undefined) return undefined;
    checkChunk({ size: row.size, chunks: row.chunks, chunkBytes: row.chunk_bytes }, index, bytes.length);
    q.putChunk.run(uploadId, index, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    q.touchUnverified.run(now(), uploadId);
    return toUpload(q.get.get(uploadId, owner)!);
  });
  const read = transaction((owner: string, uploadId: string) => {
    const row = live(q.get.get(uploadId, owner));
    if (row === undefined) return undefined;
    q.touch.run(now(), uploadId);
    const missing = missingChunks(row.chunks, q.received.all(uploadId));
    if (missing.length > 0) throw new MissingChunksError(missing);
    const bytes = Buffer.concat(q.chunks.all(uploadId));
    if (row.verified === 0) {
      try {
        checkWhole(row, bytes);
      } catch (error) {
        remove(uploadId);
        return error as Error; // returned, not thrown: the drop must commit
      }
      q.verified.run(uploadId);
    }
    return bytes;
  });
  const touch = transaction((owner: string, uploadId: string) => {
    const row = live(q.get.get(uploadId, owner));
    if (row) q.touch.run(now(), uploadId);
    return row !== undefined;
  });
  const drop = transaction((owner: string, uploadId: string) => {
    const row = live(q.get.get(uploadId, owner));
    return row !== undefined && remove(uploadId);
  });
  const sweep = transaction(() => q.abandoned.all(cutoff()).filter(remove).length);

  return {
    async begin(owner, file, maxBytes) {
      return begin(owner, file, maxBytes);
    },
    async get(owner, uploadId) {
      const row = live(q.get.get(uploadId, owner));
      return row && toUpload(row);
    },
    async put(owner, uploadId, index, bytes) {
      return put(owner, uploadId, index, bytes);
    },
    async read(owner, uploadId) {
      const bytes = read(owner, uploadId);
      if (bytes instanceof Error) throw bytes;
      return bytes;
    },
    async touch(owner, uploadId) {
      return touch(owner, uploadId);
    },
    async drop(owner, uploadId) {
      return drop(owner, uploadId);
    },
    async bytesOf(owner) {
      return q.bytesOf.get(owner, cutoff())!;
    },
    async sweep() {
      const swept = sweep();
      if (swept > 0) db.pragma("incremental_vacuum");
      return swept;
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
