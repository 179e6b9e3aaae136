/**
 * Sends a staff file through the app-only upload tools: size and SHA-256 first, then each chunk the
 * server lacks (base64), a lost call retried with backoff; a retry or a reload sends only what is missing.
 */
import { FILE_TOOL, UploadStateSchema, type UploadState } from "../../shared/files.js";
import { backoffDelay, race, sleep, type BackoffOptions } from "./follow-job.js";
import type { Host } from "./host.js";
import type { ToolName } from "../../shared/tools.js";
import { localFailure, type ToolOutcome } from "./tool-reply.js";

export type UploadOptions = {
  onProgress?(received: number, chunks: number): void;
  /** As soon as the server has begun it, so that it can be dropped if the person leaves it. */
  onBegun?(uploadId: string): void;
  /** Stops sending between two calls. */
  signal?: AbortSignal;
  backoff?: BackoffOptions;
  random?: () => number;
};

/** Tries of one call, each given this long. */
const ATTEMPTS = 5;
const CALL_TIMEOUT_MS = 60_000;

const hex = (digest: ArrayBuffer) =>
  Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The server's final state, or the failure that stopped it; not ChatGPT's `uploadFile` (images only). */
export async function uploadFile(host: Host, file: File, o: UploadOptions = {}): Promise<ToolOutcome<UploadState>> {
  const signal = o.signal ?? new AbortController().signal;
  const stopped = { ok: false as const, error: localFailure("unreachable") };
  const call = async (name: ToolName, args: Record<string, unknown>): Promise<ToolOutcome<UploadState>> => {
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) return stopped;
      const pending = host.callTool(name, args, UploadStateSchema);
      const reply = await race(pending, CALL_TIMEOUT_MS, signal);
      // a begin answered after it was given up on: its id still reaches onBegun, so that it can be dropped
      if (name === FILE_TOOL.beginUpload && (reply === null || (!reply.ok && reply.error.code === "timeout"))) {
        void pending.then(
          (late) => late.ok && o.onBegun?.(late.value.uploadId),
          () => {},
        );
      }
      if (reply === null) return stopped;
      if (reply.ok || !reply.error.transient || attempt + 1 >= ATTEMPTS) return reply;
      await sleep(backoffDelay(attempt, o.backoff, o.random), signal);
    }
  };

  const bytes = new Uint8Array(await file.arrayBuffer());
  const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
  const begin = { name: file.name.slice(-255), size: file.size, sha256, ...(file.type ? { mimeType: file.type } : {}) };
  let state = await call(FILE_TOOL.beginUpload, begin);
  if (!state.ok) return state;
  const { uploadId, chunkBytes, chunks, received } = state.value;
  o.onBegun?.(uploadId);
  const have = new Set(received);
  o.onProgress?.(have.size, chunks);
  for (let index = 0; index < chunks && !signal.aborted; index++) {
    if (have.has(index)) continue;
    const data = base64(bytes.subarray(index * chunkBytes, (index + 1) * chunkBytes));
    state = await call(FILE_TOOL.putChunk, { uploadId, index, data });
    if (!state.ok) return state;
    have.add(index);
    o.onProgress?.(have.size, chunks);
  }
  if (signal.aborted) return stopped;
  return state.value.complete ? state : { ok: false, error: localFailure("bad_reply") };
}
