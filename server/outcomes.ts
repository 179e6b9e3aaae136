/** Domain outcomes: a value, or an error that tells the caller what to do next, worded once here. */
import type { ErrorCode, ToolError } from "../shared/errors.js";
import type { JobStatus } from "../shared/job-view.js";
import { TOOL } from "../shared/tools.js";
/** The error becomes an `isError: true` tool result. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ToolError };

export const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });

export function fail<T = never>(code: ErrorCode, message: string, hint?: string): Outcome<T> {
  return { ok: false, error: hint === undefined ? { code, message } : { code, message, hint } };
}

/** A failure the same call may get past later. */
export const retryable = <T>(code: ErrorCode, message: string, hint: string): Outcome<T> => ({
  ok: false,
  error: { code, message, hint, retryable: true },
});

/** The answer to any call while the job store cannot be reached. */
export const storeUnavailable = <T>(): Outcome<T> =>
  retryable(
    "store_unavailable",
    "The job store is unreachable at the moment, so jobs can be neither started nor read.",
    "Try the same call again in a minute; nothing was changed.",
  );

/** The one answer for a job that is missing, expired, or someone else's: they must look the same. */
export function unknownJob<T>(jobId: string): Outcome<T> {
  return fail("unknown_job", `No job ${jobId}: it may have expired; start a new analysis with ${TOOL.startBulk}.`);
}

export function notFinished<T>(jobId: string, status: JobStatus, percentage: number): Outcome<T> {
  if (status === "pending" || status === "running") {
    const where = status === "pending" ? "is waiting to start" : `is still running (${Math.floor(percentage)}% done)`;
    return fail(
      "job_not_finished",
      `Job ${jobId} ${where}, so it has no result yet.`,
      `Wait for it with ${TOOL.waitForJob} or follow it with ${TOOL.getJobEvents}, then ask again.`,
    );
  }
  const how = status === "failed" ? "failed" : "was canceled";
  return fail(
    "job_not_finished",
    `Job ${jobId} ${how}, so it has no result.`,
    `Start a new analysis with ${TOOL.startBulk}.`,
  );
}

/** "1,234,567.5": the same in every locale, and cheap enough for progress messages. */
export function count(n: number): string {
  const [whole, fraction] = String(n).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
