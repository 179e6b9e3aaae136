/**
 * Uploads in memory: for tests and for a server without a disk. Chunks are kept as the separate
 * buffers they arrived in, never joined until a whole read; an upload past its `keptUntil` reads as
 * gone at once, and `sweep` frees it.
 */
import {
  MissingChunksError,
  UploadQuotaError,
  checkChunk,
  checkWhole,
  chunkCountOf,
  keptAfterProgress,
  keptAfterUse,
  missingChunks,
  newUploadId,
  reservedBytes,
  resolveUploadOptions,
  type Upload,
  type UploadStore,
  type UploadStoreOptions,
} from "./upload-store.js";

type Entry = { upload: Omit<Upload, "received" | "receivedBytes">; chunks: Map<number, Uint8Array> };

const keyOf = (owner: string, name: string, size: number, sha256: string) =>
  JSON.stringify([owner, name, size, sha256]);

const view = (e: Entry): Upload => ({
  ...e.upload,
  received: [...e.chunks.keys()].sort((a, b) => a - b),
  receivedBytes: [...e.chunks.values()].reduce((sum, c) => sum + c.length, 0),
});

/**
 * The store's methods are arrow-function properties: bound, and own properties, so a test may
 * spread a store to replace one of them.
 */
class MemoryUploadStore implements UploadStore {
  readonly #options: Required<UploadStoreOptions>;
  readonly #uploads = new Map<string, Entry>();
  /** Upload ids by owner and file, for resuming. */
  readonly #byFile = new Map<string, string>();

  constructor(options: Required<UploadStoreOptions>) {
    this.#options = options;
  }

  readonly begin: UploadStore["begin"] = async (owner, { name, size, sha256 }, maxBytes) => {
    const { now, chunkBytes } = this.#options;
    const key = keyOf(owner, name, size, sha256);
    const known = this.#byFile.get(key);
    const resumed = known === undefined ? undefined : this.#find(owner, known);
    if (resumed) {
      resumed.upload.keptUntil = keptAfterUse(view(resumed), now(), this.#options);
      return view(resumed);
    }
    const chunks = chunkCountOf(size, chunkBytes);
    const wanted = reservedBytes({ size, receivedBytes: 0, chunkBytes });
    this.#checkRoom(owner, undefined, wanted, maxBytes);
    const uploadId = newUploadId();
    const keptUntil = keptAfterProgress(false, now(), this.#options);
    const upload = { uploadId, owner, name, size, sha256, chunkBytes, chunks, verified: false, keptUntil };
    const entry: Entry = { upload, chunks: new Map() };
    this.#uploads.set(uploadId, entry);
    this.#byFile.set(key, uploadId);
    return view(entry);
  };

  readonly get: UploadStore["get"] = async (owner, uploadId) => {
    const e = this.#find(owner, uploadId);
    return e && view(e);
  };

  readonly put: UploadStore["put"] = async (owner, uploadId, index, bytes, maxBytes) => {
    const e = this.#find(owner, uploadId);
    if (e === undefined) return undefined;
    checkChunk(e.upload, index, bytes.length);
    const before = view(e);
    const receivedBytes = before.receivedBytes + (e.chunks.has(index) ? 0 : bytes.length);
    const wanted = reservedBytes({ ...e.upload, receivedBytes });
    // a chunk sent again takes no more room: it is never refused for room
    if (wanted > reservedBytes(before)) this.#checkRoom(owner, uploadId, wanted, maxBytes);
    // a copy: the caller's buffer may be a view into something larger, or reused
    e.chunks.set(index, Uint8Array.from(bytes));
    e.upload.verified = false;
    e.upload.keptUntil = keptAfterProgress(receivedBytes === e.upload.size, this.#options.now(), this.#options);
    return view(e);
  };

  readonly read: UploadStore["read"] = async (owner, uploadId) => {
    const e = this.#find(owner, uploadId);
    if (e === undefined) return undefined;
    e.upload.keptUntil = keptAfterUse(view(e), this.#options.now(), this.#options);
    const missing = missingChunks(e.upload.chunks, [...e.chunks.keys()]);
    if (missing.length > 0) throw new MissingChunksError(missing);
    const bytes = Buffer.concat(Array.from({ length: e.upload.chunks }, (_, i) => e.chunks.get(i)!));
    if (!e.upload.verified) {
      try {
        checkWhole(e.upload, bytes);
      } catch (error) {
        this.#remove(e);
        throw error;
      }
      e.upload.verified = true;
    }
    return bytes;
  };

  readonly touch: UploadStore["touch"] = async (owner, uploadId) => {
    const e = this.#find(owner, uploadId);
    if (e) e.upload.keptUntil = keptAfterUse(view(e), this.#options.now(), this.#options);
    return e !== undefined;
  };

  readonly drop: UploadStore["drop"] = async (owner, uploadId) => {
    const e = this.#find(owner, uploadId);
    if (e) this.#remove(e);
    return e !== undefined;
  };

  readonly bytesOf: UploadStore["bytesOf"] = async (owner) => this.#bytesOf(owner, undefined);

  readonly sweep: UploadStore["sweep"] = async () => {
    const gone = [...this.#uploads.values()].filter((e) => !this.#alive(e));
    for (const e of gone) this.#remove(e);
    return gone.length;
  };

  readonly close: UploadStore["close"] = async () => {
    this.#uploads.clear();
    this.#byFile.clear();
  };

  #alive(e: Entry): boolean {
    return e.upload.keptUntil > this.#options.now();
  }

  /** Throws `UploadQuotaError` when `owner`'s uploads but `uploadId`, and `wanted` bytes more, pass `maxBytes`. */
  #checkRoom(owner: string, uploadId: string | undefined, wanted: number, maxBytes: number | undefined): void {
    if (maxBytes === undefined) return;
    const kept = this.#bytesOf(owner, uploadId);
    if (kept + wanted > maxBytes) throw new UploadQuotaError(kept, wanted);
  }

  #remove(e: Entry): void {
    this.#uploads.delete(e.upload.uploadId);
    const { owner, name, size, sha256 } = e.upload;
    this.#byFile.delete(keyOf(owner, name, size, sha256));
  }

  /** The owner's live entry, or undefined; an abandoned one is removed on the way. */
  #find(owner: string, uploadId: string): Entry | undefined {
    const e = this.#uploads.get(uploadId);
    if (e === undefined || e.upload.owner !== owner) return undefined;
    if (this.#alive(e)) return e;
    this.#remove(e);
    return undefined;
  }

  /** What `owner`'s kept uploads (but `except`) hold. */
  #bytesOf(owner: string, except: string | undefined): number {
    return [...this.#uploads.values()]
      .filter((e) => e.upload.owner === owner && e.upload.uploadId !== except && this.#alive(e))
      .reduce((s, e) => s + reservedBytes(view(e)), 0);
  }
}

export function createMemoryUploadStore(options?: UploadStoreOptions): UploadStore {
  return new MemoryUploadStore(resolveUploadOptions(options));
}
