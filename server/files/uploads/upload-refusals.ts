/**
 * What uploads answer when they cannot do what was asked, each saying what to do next: an unknown
 * upload, chunks missing, a chunk or file that does not fit, no room, a store full or unreachable.
 */
import { FILE_LIMITS, FILE_TOOL } from "../../../shared/files.js";
import { TOOL } from "../../../shared/tools.js";
import { megabytes, sizePair } from "../../limits.js";
import { count, fail, ok, retryable, type Outcome } from "../../outcomes.js";
import { StorageFullError, StoreUnavailableError } from "../../store-errors.js";
import { ChunkRejectedError, MissingChunksError, UploadCorruptError, type UploadQuotaError } from "./upload-store.js";

/** The one answer for an upload that is missing, abandoned, dropped, or someone else's. */
export const unknownUpload = <T>(uploadId: string): Outcome<T> =>
  fail(
    "invalid_arguments",
    `No upload ${uploadId}: an unfinished upload is dropped ${minutes(FILE_LIMITS.stalledAfterMs)} after its latest chunk, ` +
      `a whole one ${minutes(FILE_LIMITS.abandonedAfterMs)} after its last use or once the analysis that used it has completed.`,
    `Begin the upload again with ${FILE_TOOL.beginUpload} and send its chunks.`,
  );

/** "3, 7 and 9", or the first 20 and how many more. */
function indices(missing: number[]): string {
  const shown = missing.slice(0, 20).map(String);
  if (missing.length > 20) return `${shown.join(", ")} and ${count(missing.length - 20)} more`;
  return new Intl.ListFormat("en-GB").format(shown);
}

/** The store's refusals and outages as outcomes; anything else is thrown on. */
export function outcomeOf<T>(error: unknown, uploadId: string): Outcome<T> {
  if (error instanceof MissingChunksError) {
    return fail(
      "invalid_arguments",
      `Upload ${uploadId} is missing chunk${error.missing.length === 1 ? "" : "s"} ${indices(error.missing)} of ${error.chunks}.`,
      `Send ${error.missing.length === 1 ? "it" : "them"} with ${FILE_TOOL.putChunk}, then ask again.`,
    );
  }
  if (error instanceof UploadCorruptError || error instanceof ChunkRejectedError) {
    const hint =
      error instanceof UploadCorruptError
        ? `Send the file again from the start: ${FILE_TOOL.beginUpload}, then every chunk.`
        : `Cut the file as ${FILE_TOOL.beginUpload} answered (chunkBytes), counting from 0.`;
    return fail("invalid_arguments", error.message, hint);
  }
  if (error instanceof StorageFullError)
    return fail("internal", `The server's upload storage is full: ${error.message}.`, "Try again later.");
  if (error instanceof StoreUnavailableError) {
    const hint = "Send the same call again in a minute; nothing was lost.";
    return retryable("store_unavailable", "The upload store is unreachable at the moment.", hint);
  }
  throw error;
}

export const tooLarge = <T>(size: number): Outcome<T> => {
  const [found, limit] = sizePair(size, FILE_LIMITS.maxFileBytes, megabytes);
  return fail(
    "input_too_large",
    `The file is ${found}; the largest staff file this server takes is ${limit}.`,
    "Save only the staff list (one sheet, or as .csv), or split it into smaller files.",
  );
};

/** "48 KB", "3.5 MB": an upload's room is often less than a megabyte. */
const sizeOf = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : megabytes(bytes));

/** "10 minutes", "an hour". */
function minutes(ms: number): string {
  const m = Math.round(ms / 60_000);
  return m === 60 ? "an hour" : `${m} minute${m === 1 ? "" : "s"}`;
}

/** The refusal of a begin or a chunk the quota leaves no room for: what holds it, and what frees it. */
export function noRoom<T>(error: UploadQuotaError, jobsKeep: number, maxStored: number): Outcome<T> {
  const held = [
    error.keptBytes > 0 ? `your uploads hold ${sizeOf(error.keptBytes)}` : "",
    jobsKeep > 0 ? `your analyses keep ${sizeOf(jobsKeep)}` : "",
  ].filter(Boolean);
  const needs = `this upload needs ${sizeOf(error.wantedBytes)}; the limit is ${megabytes(maxStored)}.`;
  const helps = [
    error.keptBytes > 0
      ? `Drop uploads you no longer need with ${FILE_TOOL.dropUpload} (removing a file in the widget does so), or ` +
        `wait: an unfinished upload is dropped ${minutes(FILE_LIMITS.stalledAfterMs)} after its latest chunk.`
      : "",
    jobsKeep > 0 ? `Finished analyses you no longer need can be deleted with ${TOOL.deleteJob}.` : "",
  ].filter(Boolean);
  return fail(
    "quota_exceeded",
    held.length > 0 ? `${held.join(" and ").replace(/^y/, "Y")}, and ${needs}` : needs.replace(/^t/, "T"),
    helps.join(" ") ||
      "The limit is smaller than one upload needs: ask the server's operator to raise QUOTA_STORED_MB.",
  );
}

export function decodeChunk(data: string, index: number): Outcome<Buffer> {
  const bytes = Buffer.from(data, "base64");
  // Node's decoder skips what is not base64; what it read must encode back to what was sent
  if (bytes.toString("base64") === data) return ok(bytes);
  return fail(
    "invalid_arguments",
    `Chunk ${index}'s data is not base64.`,
    "Send the chunk's bytes base64-encoded (RFC 4648, with padding).",
  );
}
