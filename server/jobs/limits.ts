/**
 * The limits a job system enforces, with their defaults. Each one that a caller can hit has a
 * clear error (see outcomes.ts); the others keep the server healthy.
 */

export type JobLimits = {
  /** Largest CSV accepted, in UTF-8 bytes. */
  maxCsvBytes: number;
  /** Most employee rows in one job. */
  maxRows: number;
  /** Jobs running at once; later ones wait as `pending`, first come first served. */
  maxConcurrentJobs: number;
  /**
   * Long polls (get_job_events, wait_for_job) waiting at once, over all jobs; past it a poll
   * answers at once with what there is (see waiters.ts).
   */
  maxWaitingPolls: number;
  /** How long a finished job (events and result) is kept after it was created. */
  retentionMs: number;
  /** How often expired jobs are deleted from the store. */
  sweepIntervalMs: number;
  /** Jobs one subject may have pending or running at once. */
  maxUnfinishedPerSubject: number;
  /** Jobs one subject may start in an hour (a rolling hour). */
  maxStartsPerHour: number;
  /** UTF-8 bytes one subject's jobs may keep, inputs and results together. */
  maxStoredBytesPerSubject: number;
};

const DEFAULT_LIMITS: JobLimits = {
  maxCsvBytes: 8 * 1024 * 1024,
  maxRows: 200_000,
  maxConcurrentJobs: 4,
  maxWaitingPolls: 10_000,
  retentionMs: 24 * 60 * 60 * 1000,
  sweepIntervalMs: 10 * 60 * 1000,
  maxUnfinishedPerSubject: 10,
  maxStartsPerHour: 100,
  maxStoredBytesPerSubject: 512 * 1024 * 1024,
};

/** A byte limit as texts state it: "8 MB", "10.5 MB". */
export const megabytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The defaults overridden by whatever `limits` sets. */
export function resolveLimits(limits: Partial<JobLimits> = {}): JobLimits {
  const merged = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(limits) as [keyof JobLimits, number | undefined][]) {
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}
