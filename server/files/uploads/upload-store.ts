/**
 * The storage interface behind chunked uploads (a file announced by name, size and SHA-256, sent in
 * fixed-size chunks) and the rules its stores share; `test-kit/upload-store-suite.ts` checks each
 * store (SQLite, also in memory, and Redis) against the guarantees written on its methods.
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

/** ≥128 random bits: an upload id cannot be guessed. */
export const newUploadId = (): string => `upl_${randomBytes(16).toString("base64url")}`;

export function resolveUploadOptions(options: UploadStoreOptions = {}): Required<UploadStoreOptions> {
  return {
    now: options.now ?? Date.now,
    abandonedAfterMs: options.abandonedAfterMs ?? FILE_LIMITS.abandonedAfterMs,
    stalledAfterMs: options.stalledAfterMs ?? FILE_LIMITS.stalledAfterMs,
    chunkBytes: options.chunkBytes ?? FILE_LIMITS.chunkBytes,
  };
}

/** An upload holds what it received and room for this many chunks more (a begun empty one holds two, not its size). */
export const RESERVE_AHEAD_CHUNKS = 2;

/** What an upload holds against its owner's quota. */
export function reservedBytes(u: Pick<Upload, "size" | "receivedBytes" | "chunkBytes">): number {
  return u.receivedBytes + Math.min(u.size - u.receivedBytes, RESERVE_AHEAD_CHUNKS * u.chunkBytes);
}

/** The length chunk `index` of an upload has (every chunk but the last: `chunkBytes`). */
export const chunkLength = (u: Pick<Upload, "size" | "chunks" | "chunkBytes">, index: number): number =>
  index === u.chunks - 1 ? u.size - u.chunkBytes * (u.chunks - 1) : u.chunkBytes;

export const chunkCountOf = (size: number, chunkBytes: number): number => Math.max(1, Math.ceil(size / chunkBytes));

/** Throws `ChunkRejectedError` unless chunk `index` of length `length` fits `upload`. */
export function checkChunk(
  upload: Pick<Upload, "size" | "chunks" | "chunkBytes">,
  index: number,
  length: number,
): void {
  const { chunks, chunkBytes } = upload;
  if (!Number.isInteger(index) || index < 0 || index >= chunks) {
    throw new ChunkRejectedError(
      `Chunk ${index} is out of range: this upload has ${chunks === 1 ? "one chunk, 0" : `chunks 0 to ${chunks - 1}`}.`,
    );
  }
  const expected = chunkLength(upload, index);
  if (length !== expected) {
    throw new ChunkRejectedError(
      `Chunk ${index} has ${length} bytes; it must have ${expected} (every chunk but the last has ${chunkBytes}, the last the rest of the file).`,
    );
  }
}

/** Throws `MissingChunksError` unless `received` holds every index 0..chunks-1. */
export function checkComplete(chunks: number, received: readonly number[]): void {
  const held = new Set(received);
  const missing = Array.from({ length: chunks }, (_, i) => i).filter((i) => !held.has(i));
  if (missing.length > 0) throw new MissingChunksError(missing, chunks);
}

/** An `UploadCorruptError` unless `bytes` have the announced size and SHA-256 (returned, so a store drops first). */
export function corruption(upload: UploadFile, bytes: Uint8Array): UploadCorruptError | undefined {
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
