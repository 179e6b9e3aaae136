/**
 * Chunked uploads (a file announced by name, size and SHA-256, sent in fixed-size chunks): the store
 * interface, and its rules written once (`createUploadStore`) over a storage that makes each step's
 * changes atomically (sqlite.ts, redis.ts). `test-kit/upload-store-suite.ts` checks every store.
 */
import { createHash, randomBytes } from "node:crypto";
import { FILE_LIMITS } from "../../../shared/files.js";

/** What the owner says of the file it is about to send. */
export type UploadFile = { name: string; size: number; sha256: string };

/** An upload as kept: the announced file, how it is cut, and the chunks held so far. */
export type Upload = UploadFile & {
  uploadId: string;
  owner: string;
  chunkBytes: number;
  chunks: number;
  /** Indices of the chunks held, ascending. */
  received: number[];
  receivedBytes: number;
  /** True once the whole file was assembled and matched its size and digest. */
  verified: boolean;
  /**
   * Kept until (ms): unfinished, `stalledAfterMs` after its begin or latest chunk (a resume does not
   * extend it); whole, `abandonedAfterMs` after its last use.
   */
  keptUntil: number;
};

/** Defaults: Date.now and FILE_LIMITS. `chunkBytes` is every chunk's length but the last's. */
export type UploadStoreOptions = {
  now?: () => number;
  abandonedAfterMs?: number;
  stalledAfterMs?: number;
  chunkBytes?: number;
};

/** A chunk that cannot belong to its upload: an index out of range or the wrong length. Nothing was written. */
export class ChunkRejectedError extends Error {
  override name = "ChunkRejectedError";
}

/** The upload is not whole yet: `missing` are the indices of the chunks still to send, of `chunks`. */
export class MissingChunksError extends Error {
  override name = "MissingChunksError";
  constructor(
    readonly missing: number[],
    readonly chunks: number,
  ) {
    super(`chunks ${missing.join(", ")} are missing`);
  }
}

/** The assembled bytes did not match the announced size or SHA-256; the upload was dropped. */
export class UploadCorruptError extends Error {
  override name = "UploadCorruptError";
}

/** No room for `begin` or `put`: the owner's other `keptBytes` and this `wantedBytes` pass it; nothing written. */
export class UploadQuotaError extends Error {
  override name = "UploadQuotaError";
  constructor(
    readonly keptBytes: number,
    readonly wantedBytes: number,
  ) {
    super(`the owner's other uploads hold ${keptBytes} bytes, and this one would hold ${wantedBytes}`);
  }
}

/** Stores implement methods as arrow-function properties, so a test may spread a store to replace one. */
export type UploadStore = {
  /**
   * Begins an upload, or resumes the owner's kept one of the same name, size and digest (keeping a whole
   * one longer). With `maxBytes`, one that with the owner's (`bytesOf`) would pass it is an `UploadQuotaError`.
   */
  begin(owner: string, file: UploadFile, maxBytes?: number): Promise<Upload>;
  /** The upload, or undefined when it is missing, abandoned, dropped, or another owner's (all alike). */
  get(owner: string, uploadId: string): Promise<Upload | undefined>;
  /**
   * Stores chunk `index`, keeping the upload longer; undefined when unknown. A wrong index or length
   * is a `ChunkRejectedError`; a chunk sent again replaces it and unverifies the upload. With
   * `maxBytes`, as `begin` (a chunk sent again takes no more room).
   */
  put(
    owner: string,
    uploadId: string,
    index: number,
    bytes: Uint8Array,
    maxBytes?: number,
  ): Promise<Upload | undefined>;
  /**
   * The whole file, touching the upload; undefined when unknown. Chunks still to come are a `MissingChunksError`;
   * the first whole read checks size and SHA-256 (a mismatch drops the upload: `UploadCorruptError`).
   */
  read(owner: string, uploadId: string): Promise<Uint8Array | undefined>;
  /** Counts as activity: a job is using the upload. False when unknown. */
  touch(owner: string, uploadId: string): Promise<boolean>;
  /** Drops the upload with its chunks; false when it was unknown. */
  drop(owner: string, uploadId: string): Promise<boolean>;
  /** What `owner`'s kept uploads hold against the quota (`reservedBytes` of each), added up. */
  bytesOf(owner: string): Promise<number>;
  /** Deletes abandoned uploads with their chunks; returns how many. */
  sweep(): Promise<number>;
  close(): Promise<void>;
};

/** A step's changes, in order: an upload's fields written, a chunk written, an upload dropped with its chunks. */
export type UploadChange = { save: Upload } | { uploadId: string; index: number; chunk: Buffer } | { remove: string };

/** What a step decided: its answer, then the changes to make (none for a read). */
type Decision<T> = [value: T, ...changes: UploadChange[]];
/** A step, deciding on the owner's uploads and the chunks asked for. */
type Step<T> = (uploads: Upload[], chunks: Buffer[]) => Decision<T>;

/** Where uploads are kept; what to keep is `createUploadStore`'s to decide. */
export type UploadStorage = {
  /**
   * Runs `decide` on `owner`'s uploads as kept (lapsed ones too), with the chunks of the owner's upload
   * `chunksOf` in index order, and makes the changes it returns, all in one atomic step: none when it
   * throws. It may run again, on the uploads as they are then, when another instance changed them first.
   */
  transact<T>(owner: string, decide: Step<T>, chunksOf?: string): Promise<T>;
  /** Drops the uploads kept until `now` or before, with their chunks; returns how many. */
  sweep(now: number): Promise<number>;
  close(): Promise<void>;
};

/** An upload holds what it received and room for this many chunks more (a begun empty one holds two, not its size). */
const RESERVE_AHEAD_CHUNKS = 2;

/** What an upload holds against its owner's quota. */
const reservedBytes = (u: Upload): number =>
  u.receivedBytes + Math.min(u.size - u.receivedBytes, RESERVE_AHEAD_CHUNKS * u.chunkBytes);

/** Throws `ChunkRejectedError` unless chunk `index` of length `length` fits `upload`. */
function checkChunk({ size, chunks, chunkBytes }: Upload, index: number, length: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= chunks) {
    throw new ChunkRejectedError(
      `Chunk ${index} is out of range: this upload has ${chunks === 1 ? "one chunk, 0" : `chunks 0 to ${chunks - 1}`}.`,
    );
  }
  // every chunk but the last: `chunkBytes`
  const expected = index === chunks - 1 ? size - chunkBytes * (chunks - 1) : chunkBytes;
  if (length !== expected) {
    throw new ChunkRejectedError(
      `Chunk ${index} has ${length} bytes; it must have ${expected} (every chunk but the last has ${chunkBytes}, the last the rest of the file).`,
    );
  }
}

/** An `UploadCorruptError` unless `bytes` have the announced size and SHA-256. */
function corruption(upload: UploadFile, bytes: Uint8Array): UploadCorruptError | undefined {
  if (bytes.length !== upload.size) {
    return new UploadCorruptError(
      `The file assembled to ${bytes.length} bytes, not the ${upload.size} announced, so it was dropped.`,
    );
  }
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== upload.sha256) {
    return new UploadCorruptError(
      "The file's SHA-256 does not match the one announced when the upload began (a chunk was damaged or " +
        "belongs to another file), so it was dropped.",
    );
  }
}

/** Resolved: Date.now and FILE_LIMITS by default. */
export function resolveUploadOptions({
  now = Date.now,
  abandonedAfterMs = FILE_LIMITS.abandonedAfterMs,
  stalledAfterMs = FILE_LIMITS.stalledAfterMs,
  chunkBytes = FILE_LIMITS.chunkBytes,
}: UploadStoreOptions = {}): Required<UploadStoreOptions> {
  return { now, abandonedAfterMs, stalledAfterMs, chunkBytes };
}

/** The upload store on `storage`: every rule of the contract, decided here for every kind of storage. */
export function createUploadStore(storage: UploadStorage, options: UploadStoreOptions = {}): UploadStore {
  const { now, abandonedAfterMs, stalledAfterMs, chunkBytes } = resolveUploadOptions(options);
  const isKept = (u: Upload) => u.keptUntil > now();
  const keptOf = (uploads: Upload[], uploadId: string) => uploads.find((u) => u.uploadId === uploadId && isKept(u));
  /** `u` used (a resume, a read, a job): only a whole upload is kept longer. */
  const used = (u: Upload): Upload =>
    u.receivedBytes < u.size ? u : { ...u, keptUntil: Math.max(u.keptUntil, now() + abandonedAfterMs) };
  /** What the kept uploads but `except` hold. */
  const heldBy = (uploads: Upload[], except = "") =>
    uploads.filter((u) => u.uploadId !== except && isKept(u)).reduce((sum, u) => sum + reservedBytes(u), 0);
  /** Throws `UploadQuotaError` when the uploads but `except`, and `wanted`, pass `maxBytes`. */
  function checkRoom(uploads: Upload[], except: string, wanted: number, maxBytes: number | undefined): void {
    const kept = heldBy(uploads, except);
    if (maxBytes !== undefined && kept + wanted > maxBytes) throw new UploadQuotaError(kept, wanted);
  }
  const saved = (upload: Upload): Decision<Upload> => [upload, { save: upload }];

  return {
    begin: (owner, { name, size, sha256 }, maxBytes) =>
      storage.transact(owner, (uploads): Decision<Upload> => {
        const known = uploads.find((u) => u.name === name && u.size === size && u.sha256 === sha256);
        if (known && isKept(known)) return saved(used(known));
        const upload: Upload = {
          uploadId: `upl_${randomBytes(16).toString("base64url")}`, // ≥128 random bits: it cannot be guessed
          owner,
          name,
          size,
          sha256,
          chunkBytes,
          chunks: Math.max(1, Math.ceil(size / chunkBytes)),
          received: [],
          receivedBytes: 0,
          verified: false,
          keptUntil: now() + stalledAfterMs,
        };
        checkRoom(uploads, "", reservedBytes(upload), maxBytes);
        // a lapsed one, not yet swept, holds the file's place
        return [upload, ...(known ? [{ remove: known.uploadId }] : []), { save: upload }];
      }),

    get: (owner, uploadId) => storage.transact(owner, (uploads) => [keptOf(uploads, uploadId)]),

    put: (owner, uploadId, index, bytes, maxBytes) =>
      storage.transact(owner, (uploads): Decision<Upload | undefined> => {
        const upload = keptOf(uploads, uploadId);
        if (upload === undefined) return [undefined];
        checkChunk(upload, index, bytes.length);
        const isNew = !upload.received.includes(index);
        const receivedBytes = upload.receivedBytes + (isNew ? bytes.length : 0);
        const received = isNew ? [...upload.received, index].sort((a, b) => a - b) : upload.received;
        const keptUntil = now() + (receivedBytes === upload.size ? abandonedAfterMs : stalledAfterMs);
        const next: Upload = { ...upload, received, receivedBytes, verified: false, keptUntil };
        // a chunk sent again takes no more room: it is never refused for room
        if (reservedBytes(next) > reservedBytes(upload)) checkRoom(uploads, uploadId, reservedBytes(next), maxBytes);
        const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        return [next, { uploadId, index, chunk }, { save: next }];
      }),

    read: async (owner, uploadId) => {
      const assemble: Step<Buffer | Error | undefined> = (uploads, chunks) => {
        const upload = keptOf(uploads, uploadId);
        if (upload === undefined) return [undefined];
        const missing = Array.from({ length: upload.chunks }, (_, i) => i).filter((i) => !upload.received.includes(i));
        if (missing.length > 0) throw new MissingChunksError(missing, upload.chunks);
        const whole = Buffer.concat(chunks);
        const corrupt = upload.verified ? undefined : corruption(upload, whole);
        // returned, not thrown, so that the drop is made
        if (corrupt) return [corrupt, { remove: uploadId }];
        return [whole, { save: { ...used(upload), verified: true } }];
      };
      const bytes = await storage.transact(owner, assemble, uploadId);
      if (bytes instanceof Error) throw bytes;
      return bytes;
    },

    touch: (owner, uploadId) =>
      storage.transact(owner, (uploads): Decision<boolean> => {
        const upload = keptOf(uploads, uploadId);
        return upload ? [true, { save: used(upload) }] : [false];
      }),

    drop: (owner, uploadId) =>
      storage.transact(owner, (uploads) => (keptOf(uploads, uploadId) ? [true, { remove: uploadId }] : [false])),

    bytesOf: (owner) => storage.transact(owner, (uploads) => [heldBy(uploads)]),
    sweep: () => storage.sweep(now()),
    close: () => storage.close(),
  };
}
