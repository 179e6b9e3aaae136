/**
 * `GET /files/<token>/<name>`: the file an expiring link names, written from the store as it is
 * sent, through the job service's access gate. An expired link gets 410 and any other that opens
 * nothing the same 404, so a link never tells whether a job exists.
 */
import type { JobService } from "../../jobs/job-service.js";
import { exportFile } from "./export-file.js";
import type { FileLinks } from "./file-links.js";

const GONE = "This download link has expired: links work for 15 minutes. Export the file again for a new link.";
const NOT_FOUND = "There is no file at this link. Export the file again for a new link.";
const UNAVAILABLE = "The job store is unreachable for a moment, so the file cannot be written. Try again in a minute.";

const text = (status: number, body: string, headers: Record<string, string> = {}): Response =>
  new Response(`${body}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers },
  });

const unavailable = () => text(503, UNAVAILABLE, { "retry-after": "30" });

/** RFC 5987's attr-char: what may stand unencoded in `filename*`. */
const encodeRfc5987 = (value: string): string =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** RFC 6266: `filename*` carries the real name in UTF-8 (a Korean title), `filename` ASCII for old ones. */
function contentDisposition(fileName: string): string {
  const plain = /^[\x20-\x7e]+$/.test(fileName) && !/["\\%]/.test(fileName);
  const fallback = plain ? fileName : `gift-picks${fileName.slice(fileName.lastIndexOf("."))}`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}

/** The bytes, with a failure told to `onError` (the client sees a cut download, never a short file that looks whole). */
async function* told(chunks: AsyncGenerator<Uint8Array>, onError: (error: unknown) => void) {
  try {
    yield* chunks;
  } catch (error) {
    onError(error);
    throw error;
  }
}

export type FileRouteOptions = {
  jobs: Pick<JobService, "openResult">;
  links: FileLinks;
  onError?: (error: unknown) => void;
};

export function createFileRoute({ jobs, links, onError = () => {} }: FileRouteOptions) {
  return async (token: string): Promise<Response> => {
    const verified = await links.verify(token).catch((error: unknown) => {
      onError(error); // the key kept in Redis could not be read
    });
    if (verified === undefined) return unavailable();
    if (!verified.ok) return verified.why === "expired" ? text(410, GONE) : text(404, NOT_FOUND);
    const { jobId, subject, format, part } = verified.claims;
    const opened = await jobs.openResult(jobId, { subject });
    if (!opened.ok) return opened.error.code === "store_unavailable" ? unavailable() : text(404, NOT_FOUND);
    const file = exportFile(opened.value, part, format);
    // pulled only as the client reads: a HEAD, or a client that leaves, costs nothing
    return new Response(ReadableStream.from(told(file.body(), onError)), {
      headers: {
        "content-type": file.mimeType,
        "content-disposition": contentDisposition(file.fileName),
        "cache-control": "no-store, private",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
      },
    });
  };
}
