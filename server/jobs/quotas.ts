/**
 * The quotas one subject lives within: jobs unfinished at once, starts in a rolling hour, and
 * bytes kept. The store checks them as it creates the job; `checkQuotas` says which limit it was.
 */
import { TOOL } from "../../shared/tools.js";
import { megabytes, type JobLimits } from "../limits.js";
import { count, fail, ok, retryable, type Outcome } from "../outcomes.js";
import type { CreateQuota, JobStore } from "./store.js";

const HOUR_MS = 60 * 60 * 1000;

/** The room a job created at `now` must find. */
export function createQuota(limits: JobLimits, now: number): CreateQuota {
  return {
    // a start exactly an hour ago no longer counts
    since: now - HOUR_MS + 1,
    maxUnfinished: limits.maxUnfinishedPerSubject,
    maxStartsSince: limits.maxStartsPerHour,
    maxBytes: limits.maxStoredBytesPerSubject,
  };
}

/** Which quota, if any, keeps `subject` from starting a job whose input takes `bytes`. */
export async function checkQuotas(
  store: JobStore,
  subject: string,
  bytes: number,
  limits: JobLimits,
  now: number,
): Promise<Outcome<void>> {
  const usage = await store.usage(subject, createQuota(limits, now).since);
  if (usage.unfinished >= limits.maxUnfinishedPerSubject) {
    return fail(
      "quota_exceeded",
      `You already have ${count(usage.unfinished)} analyses waiting or running; the limit is ${count(limits.maxUnfinishedPerSubject)} at a time.`,
      `Wait for one to end (${TOOL.waitForJob}) or cancel one (${TOOL.cancelJob}), then start this one again.`,
    );
  }
  if (usage.startedSince >= limits.maxStartsPerHour) {
    const freeAt = (usage.firstStartSince ?? now) + HOUR_MS;
    const minutes = Math.max(1, Math.ceil((freeAt - now) / 60_000));
    return retryable(
      "rate_limited",
      `You started ${count(usage.startedSince)} analyses in the last hour; the limit is ${count(limits.maxStartsPerHour)} an hour.`,
      `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    );
  }
  if (usage.bytes + bytes > limits.maxStoredBytesPerSubject) {
    const hours = Math.round(limits.retentionMs / HOUR_MS);
    return fail(
      "quota_exceeded",
      `Your jobs keep ${megabytes(usage.bytes)} of employee lists and results, and this list adds ${megabytes(bytes)}; the limit is ${megabytes(limits.maxStoredBytesPerSubject)}.`,
      `Delete finished jobs you no longer need with ${TOOL.deleteJob}, or wait: jobs are deleted ${hours} hour${hours === 1 ? "" : "s"} after they were started.`,
    );
  }
  return ok(undefined);
}
