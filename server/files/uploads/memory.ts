/**
 * Uploads in memory: for tests and for a server without a disk. Chunks are kept as the separate
 * buffers they arrived in, never joined until a whole read; an upload untouched for the abandonment
 * time reads as gone at once, and `sweep` frees it.
 */
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
  type UploadStore,
  type UploadStoreOptions,
} from "./upload-store.js";

type Entry = { upload: Omit<Upload, "received">; chunks: Map<number, Uint8Array> };

const keyOf = (owner: string, name: string, size: number, sha256: string) =>
  JSON.stringify([owner, name, size, sha256]);

export function createMemoryUploadStore(options?: UploadStoreOptions): UploadStore {
  const { now, abandonedAfterMs, chunkBytes } = resolveUploadOptions(options);
  const uploads = new Map<string, Entry>();
  const byFile = new Map<string, string>();

  const alive = (e: Entry) => e.upload.touchedAt + abandonedAfterMs > now();
  const view = (e: Entry): Upload => ({ ...e.upload, received: [...e.chunks.keys()].sort((a, b) => a - b) });
  const remove = (e: Entry) => {
    uploads.delete(e.upload.uploadId);
    const { owner, name, size, sha256 } = e.upload;
    byFile.delete(keyOf(owner, name, size, sha256));
  };
  /** The owner's live entry, or undefined; an abandoned one is removed on the way. */
  const find = (owner: string, uploadId: string) => {
    const e = uploads.get(uploadId);
    if (e === undefined || e.upload.owner !== owner) return undefined;
    if (alive(e)) return e;
    remove(e);
    return undefined;
  };
  const bytesOf = (owner: string) =>
    [...uploads.values()].filter((e) => e.upload.owner === owner && alive(e)).reduce((s, e) => s + e.upload.size, 0);

  return {
    async begin(owner, { name, size, sha256 }, maxBytes) {
      const key = keyOf(owner, name, size, sha256);
      const known = byFile.get(key);
      const resumed = known === undefined ? undefined : find(owner, known);
      if (resumed) {
        resumed.upload.touchedAt = now();
        return view(resumed);
      }
      const kept = bytesOf(owner);
      if (maxBytes !== undefined && kept + size > maxBytes) throw new UploadQuotaError(kept);
      const uploadId = newUploadId();
      const chunks = chunkCountOf(size, chunkBytes);
      const upload = { uploadId, owner, name, size, sha256, chunkBytes, chunks, verified: false, touchedAt: now() };
      const entry: Entry = { upload, chunks: new Map() };
      uploads.set(uploadId, entry);
      byFile.set(key, uploadId);
      return view(entry);
    },
    async get(owner, uploadId) {
      const e = find(owner, uploadId);
      return e && view(e);
    },
    async put(owner, uploadId, index, bytes) {
      const e = find(owner, uploadId);
      if (e === undefined) return undefined;
      checkChunk(e.upload, index, bytes.length);
      // a copy: the caller's buffer may be a view into something larger, or reused
      e.chunks.set(index, Uint8Array.from(bytes));
      e.upload.verified = false;
      e.upload.touchedAt = now();
      return view(e);
    },
    async read(owner, uploadId) {
      const e = find(owner, uploadId);
      if (e === undefined) return undefined;
      e.upload.touchedAt = now();
      const missing = missingChunks(e.upload.chunks, [...e.chunks.keys()]);
      if (missing.length > 0) throw new MissingChunksError(missing);
      const bytes = Buffer.concat(Array.from({ length: e.upload.chunks }, (_, i) => e.chunks.get(i)!));
      if (!e.upload.verified) {
        try {
          checkWhole(e.upload, bytes);
        } catch (error) {
          remove(e);
          throw error;
        }
        e.upload.verified = true;
      }
      return bytes;
    },
    async touch(owner, uploadId) {
      const e = find(owner, uploadId);
      if (e) e.upload.touchedAt = now();
      return e !== undefined;
    },
    async drop(owner, uploadId) {
      const e = find(owner, uploadId);
      if (e) remove(e);
      return e !== undefined;
    },
    async bytesOf(owner) {
      return bytesOf(owner);
    },
    async sweep() {
      const gone = [...uploads.values()].filter((e) => !alive(e));
      gone.forEach(remove);
      return gone.length;
    },
    async close() {
      uploads.clear();
      byFile.clear();
    },
  };
}
