/**
 * The storage interface behind chunked uploads of staff files: an upload is a file its owner
 * announced (name, size, SHA-256) and sends in fixed-size chunks, each written to the store as it
 * arrives. Memory, SQLite and Redis implement it; `test-kit/upload-store-suite.ts` checks each
 * against the guarantees written on its methods.
 *
 * What an upload holds against its owner's quota is what it has received and room for its next
 * `RESERVE_AHEAD_CHUNKS` chunks (never more than it declared): a begun upload that sends nothing
 * holds two chunks' worth, not its declared size. An unfinished upload is kept `stalledAfterMs`
 * (10 minutes) after its begin or its latest chunk, and beginning it again does not extend that;
 * a whole one is kept `abandonedAfterMs` (an hour) after its last use (a chunk, a read, a job).
 */
import { createHash, randomBytes } from "node:crypto";
import { FILE_LIMITS } from "../../../shared/files.js";

/** What the owner says of the file it is about to send. */
export type UploadFile = { name: string; size: number; sha256: string };

/** An upload as kept: the announced file, how it is cut, the chunks held so far, and its last activity. */
export type Upload = UploadFile & {
  uploadId: string;
  owner: string;
  chunkBytes: number;
  chunks: number;
  /** Indices of the chunks held, ascending. */
  received: number[];
  /** Bytes of the chunks held. */
  receivedBytes: number;
  /** True once the whole file was assembled and matched its size and digest. */
  verified: boolean;
  /**
   * Until when the upload is kept, ms since the epoch: unfinished, `stalledAfterMs` after its begin
   * or latest chunk; whole, `abandonedAfterMs` after its last chunk, read or use.
   */
  keptUntil: number;
};

export type UploadStoreOptions = {
  /** Wall-clock time in ms; the store decides abandonment by it. */
  now?: () => number;
  /** A whole upload unused this long is gone (FILE_LIMITS.abandonedAfterMs by default). */
  abandonedAfterMs?: number;
  /** An unfinished upload with no chunk this long is gone (FILE_LIMITS.stalledAfterMs by default). */
  stalledAfterMs?: number;
  /** Bytes of every chunk but the last (FILE_LIMITS.chunkBytes by default). */
  chunkBytes?: number;
};

/** A chunk that cannot belong to its upload: an index out of range or the wrong length. Nothing was written. */
export class ChunkRejectedError extends Error {
  override name = "ChunkRejectedError";
}

/** The upload is not whole yet: `missing` are the indices of the chunks still to send. */
export class MissingChunksError extends Error {
  override name = "MissingChunksError";
  constructor(readonly missing: number[]) {
    super(`chunks ${missing.join(", ")} are missing`);
  }
}

/** The assembled bytes did not match the announced size or SHA-256; the upload was dropped. */
export class UploadCorruptError extends Error {
  override name = "UploadCorruptError";
}

/**
 * `begin` or `put` found no room: what the owner's other uploads hold (`keptBytes`) and what this
 * one would hold after the call (`wantedBytes`) pass the bytes allowed. Nothing was written.
 */
export class UploadQuotaError extends Error {
  override name = "UploadQuotaError";
  constructor(
    readonly keptBytes: number,
    readonly wantedBytes: number,
  ) {
    super(`the owner's other uploads hold ${keptBytes} bytes, and this one would hold ${wantedBytes}`);
  }
}

export type UploadStore = {
  /**
   * Begins an upload of `file` for `owner`, or, when `owner` began the same name, size and digest
   * and the upload is still kept, returns that one with the chunks it holds (a resume; a whole
   * upload is kept longer by it, an unfinished one is not). With `maxBytes`, a new upload is
   * refused with `UploadQuotaError` when what the owner's kept uploads hold (`bytesOf`) and what
   * this one holds at its start (`reservedBytes`) would pass it; the check and the write are one step.
   */
  begin(owner: string, file: UploadFile, maxBytes?: number): Promise<Upload>;
  /** The upload, or undefined when it is missing, abandoned, dropped, or another owner's (all alike). */
  get(owner: string, uploadId: string): Promise<Upload | undefined>;
  /**
   * Stores chunk `index` and keeps the upload longer; undefined when the upload is unknown (as `get`).
   * An index outside 0..chunks-1, or a length other than `chunkBytes` (the last chunk: the rest of
   * the size), is a `ChunkRejectedError`. Sending a chunk again replaces it and unverifies the upload.
   * With `maxBytes`, a new chunk after which the owner's uploads would hold more is refused with
   * `UploadQuotaError`, in the same step as the write (a chunk sent again takes no more room).
   */
  put(
    owner: string,
    uploadId: string,
    index: number,
    bytes: Uint8Array,
    maxBytes?: number,
  ): Promise<Upload | undefined>;
  /**
   * The whole file in chunk order, touching the upload; undefined when unknown. Chunks still to
   * come are a `MissingChunksError`. The first whole read checks the size and SHA-256: a mismatch
   * drops the upload and is an `UploadCorruptError`; a match marks it verified.
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

/** The options with their defaults. */
export function resolveUploadOptions(options: UploadStoreOptions = {}): Required<UploadStoreOptions> {
  return {
    now: options.now ?? Date.now,
    abandonedAfterMs: options.abandonedAfterMs ?? FILE_LIMITS.abandonedAfterMs,
    stalledAfterMs: options.stalledAfterMs ?? FILE_LIMITS.stalledAfterMs,
    chunkBytes: options.chunkBytes ?? FILE_LIMITS.chunkBytes,
  };
}

/** Chunks past those received that an upload holds room for: what it may send in the next minutes. */
export const RESERVE_AHEAD_CHUNKS = 2;

/** What an upload holds against its owner's quota: what it received, and room for its next chunks. */
export function reservedBytes(u: Pick<Upload, "size" | "receivedBytes" | "chunkBytes">): number {
  return u.receivedBytes + Math.min(u.size - u.receivedBytes, RESERVE_AHEAD_CHUNKS * u.chunkBytes);
}

/** The length chunk `index` of an upload has (every chunk but the last: `chunkBytes`). */
export const chunkLength = (u: Pick<Upload, "size" | "chunks" | "chunkBytes">, index: number): number =>
  index === u.chunks - 1 ? u.size - u.chunkBytes * (u.chunks - 1) : u.chunkBytes;

/** How many chunks a file of `size` bytes is cut into. */
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
  if (missing.length > 0) throw new MissingChunksError(missing);
}

/** Throws `UploadCorruptError` unless `bytes` have the announced size and SHA-256. */
export function checkWhole(upload: UploadFile, bytes: Uint8Array): void {
  if (bytes.length !== upload.size) {
    throw new UploadCorruptError(
      `The file assembled to ${bytes.length} bytes, not the ${upload.size} announced, so it was dropped.`,
    );
  }
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== upload.sha256) {
    throw new UploadCorruptError(
      "The file's SHA-256 does not match the one announced when the upload began (a chunk was damaged or " +
        "belongs to another file), so it was dropped.",
    );
  }
}
