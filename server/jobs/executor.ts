/**
 * Where a created job's work runs. The service hands each job to an executor and tells it of a
 * cancel; the executor runs the work (in this process, under the concurrency limit:
 * executor-in-process.ts; or in BullMQ workers: executor-bullmq.ts) and, on start and close,
 * decides which unfinished jobs end. This is what every executor is given and answers to.
 */
import { TOOL } from "../../shared/tools.js";
import type { MatchGifts } from "../gifts/matcher.js";
import type { Caller } from "./caller.js";
import type { JobLog } from "./job-log.js";
import type { JobLimits } from "../limits.js";
import type { Locale } from "./runner/texts.js";
import type { StartPlan } from "./start-plan.js";
import type { EventDraft } from "./state-machine.js";
import type { JobStore } from "./store.js";

export type Failed = Extract<EventDraft, { type: "job.failed" }>;
/** The end of a job that was cut off: retryable, with the way to run it again. */
export const interrupted = (message: string): Failed => ({
  type: "job.failed",
  payload: { code: "interrupted", message, hint: `Run the analysis again with ${TOOL.startBulk}.`, retryable: true },
});

/** What an executor works with, from the service that owns it. */
export type ExecutorContext = {
  store: JobStore;
  log: JobLog;
  limits: JobLimits;
  match: MatchGifts;
  now: () => number;
  /** A reporter of failures no caller can be told of, for `context`. */
  report: (context: string) => (error: unknown) => void;
  /** Ends a job as failed; a write the store refuses is retried at the service's sweeps. */
  end: (jobId: string, owner: Caller, failed: Failed) => Promise<void>;
  /** The service's hook before each slice of work, if any. */
  beforeSlice?: SliceHook;
};

/**
 * What the starter of a job attached for the service's `beforeSlice` hook: opaque to the jobs,
 * JSON values only, as it travels with the job to wherever the job runs (a queue's entry too).
 */
export type RunOptions = Readonly<Record<string, unknown>>;

/**
 * Awaited before each slice of a job's work, with the job's run options; it may reject once
 * `signal` aborts (the job was canceled, or the process is closing), which stops the job.
 */
export type SliceHook = (options: RunOptions, signal: AbortSignal) => Promise<void>;

/** A job just created, with what its run needs besides the stored input. */
export type JobToRun = { jobId: string; owner: Caller; plan: StartPlan; runOptions?: RunOptions; locale?: Locale };

export type JobExecutor = {
  /**
   * Before the first call is answered: ends the unfinished jobs that nobody will run any more.
   * Rejects when the store cannot list them; the service tries again later.
   */
  recover(): Promise<void>;
  /** Takes a created job to run (it starts later, never inside this call). */
  submit(job: JobToRun): Promise<void>;
  /** The job was canceled (already recorded): stops it wherever it runs, or keeps it from starting. */
  stop(jobId: string): void;
  /** Stops this process's running jobs and ends them as interrupted; may be called again. */
  close(): Promise<void>;
};

/** Builds an executor for the service; the service calls it once, with its own context. */
export type CreateExecutor = (context: ExecutorContext) => JobExecutor;
