/**
 * Where a created job's work runs: in this process, one slice per event-loop turn (the executor of
 * the SQLite store, on disk or in memory), or in BullMQ workers (executor-bullmq.ts). What both are
 * given and share: the jobs a process runs, and one job's run.
 */
import type { ErrorCode } from "../../shared/errors.js";
import { isFinished } from "../../shared/job-view.js";
import { TOOL } from "../../shared/tools.js";
import type { MatchGifts } from "../gifts/matcher.js";
import { traceStages } from "../observability/tracing.js";
import { StorageFullError, StoreUnavailableError } from "../store-errors.js";
import type { Caller } from "./caller.js";
import type { JobLog } from "./job-log.js";
import type { EventDraft } from "./state-machine.js";
import type { JobLimits } from "../limits.js";
import { JobFailure, JobStopped, runBulkAnalysis } from "./runner/bulk-analysis.js";
import { SliceTurns } from "./runner/slice-turns.js";
import { jobTexts, type Locale } from "./runner/texts.js";
import type { StartPlan } from "./start-plan.js";
import type { JobStore } from "./store.js";

export type Failed = Extract<EventDraft, { type: "job.failed" }>;
/** A failure of the server's, not the job's: retryable, by default with the way to run it again. */
function serverFailure(code: ErrorCode, message: string, hint = `Run the analysis again with ${TOOL.startBulk}.`) {
  return { code, message, hint, retryable: true };
}
/** The end of a job that was cut off. */
export const interrupted = (message: string): Failed => ({
  type: "job.failed",
  payload: serverFailure("interrupted", message),
});

export type ExecutorContext = {
  store: JobStore;
  log: JobLog;
  limits: JobLimits;
  match: MatchGifts;
  now: () => number;
  report: (context: string) => (error: unknown) => void;
  /** Ends a job as failed; a write the store refuses is retried at the service's sweeps. */
  end: (jobId: string, owner: Caller, failed: Failed) => Promise<void>;
  beforeSlice?: SliceHook;
};

/** Opaque to the jobs, for the `beforeSlice` hook: JSON values only, as it travels with a queued job. */
export type RunOptions = Readonly<Record<string, unknown>>;

/** Awaited before each slice of a job's work; it may reject once `signal` aborts, which stops the job. */
export type SliceHook = (options: RunOptions, signal: AbortSignal) => Promise<void>;

export type JobToRun = { jobId: string; owner: Caller; plan: StartPlan; runOptions?: RunOptions; locale?: Locale };

export type JobExecutor = {
  /** Ends the unfinished jobs that nobody will run any more; rejects when the store cannot list them. */
  recover(): Promise<void>;
  /** Takes a created job to run (it starts later, never inside this call). */
  submit(job: JobToRun): Promise<void>;
  /** The job was canceled (already recorded): stops it wherever it runs. */
  stop(jobId: string): void;
  /** Stops this process's running jobs and ends them as interrupted; may be called again. */
  close(): Promise<void>;
};

export type CreateExecutor = (context: ExecutorContext) => JobExecutor;

type LiveJob = { owner: Caller; controller: AbortController };

/** The jobs running in this process, each with the switch that stops it, and the turns their slices share. */
export class LiveJobs extends Map<string, LiveJob> {
  readonly #turns = new SliceTurns();

  constructor(private readonly context: ExecutorContext) {
    super();
  }

  add(jobId: string, owner: Caller): AbortSignal {
    const controller = new AbortController();
    this.set(jobId, { owner, controller });
    return controller.signal;
  }

  abort(jobId: string): void {
    this.get(jobId)?.controller.abort();
  }

  /**
   * Runs `job` here, stopped by `signal` (the job's once added), and ends it as failed when the work
   * fails; forgets it once the run lets go. A stop leaves no event of its own: whoever stopped the
   * job records its end. Never rejects for the job's sake.
   */
  async run({ jobId, owner, plan, runOptions = {}, locale }: JobToRun, signal = this.add(jobId, owner)): Promise<void> {
    const { store, log, limits, match, report, end, beforeSlice } = this.context;
    const stages = traceStages();
    try {
      if (signal.aborted) return;
      await runBulkAnalysis({
        ...plan,
        jobId,
        maxRows: limits.maxRows,
        match,
        texts: jobTexts(locale ?? "en"),
        turns: this.#turns,
        signal,
        beforeSlice: beforeSlice && ((aborted) => beforeSlice(runOptions, aborted)),
        // a chunk refused because the job has just ended fails the run; its end is already recorded
        putChunk: (index, body) => store.putResultChunk(jobId, index, body),
        emit: async (drafts, head) => {
          const appended = await stages.appending(drafts, () => log.append(jobId, owner, drafts, head));
          if (!appended.ok) throw new JobStopped(appended.reason);
        },
      });
    } catch (error) {
      // stopped means canceled (already recorded) or closing (close records it)
      if (error instanceof JobStopped || signal.aborted) return;
      // ended meanwhile by another process (a cancel on another instance): its end is recorded
      // there; deleted meanwhile (delete_job writes no end first): there is nothing to record
      const stored = await store.getJob(jobId).catch(() => null);
      if (stored === undefined || (stored !== null && isFinished(stored.status))) return;
      // a lost store was told of when the connection dropped
      if (!(error instanceof JobFailure || error instanceof StoreUnavailableError))
        report(`running job ${jobId}`)(error);
      await end(jobId, owner, { type: "job.failed", payload: failureOf(error) });
    } finally {
      stages.end();
      this.delete(jobId);
    }
  }

  /** Stops every job here, awaits `shut` while their runs let go, then ends each as cut off by the shutdown. */
  async close(shut: () => Promise<unknown>): Promise<void> {
    const stopped = [...this.entries()];
    for (const [, job] of stopped) job.controller.abort();
    await shut();
    for (const [jobId, job] of stopped) {
      this.delete(jobId);
      await this.context.end(jobId, job.owner, interrupted("The server shut down before this job finished."));
    }
  }
}

/** At most `limits.maxConcurrentJobs` at once; whatever is unfinished at start-up was cut off by the last process. */
export const createInProcessExecutor: CreateExecutor = (context) => {
  const { store, limits, end } = context;
  const scheduler = createScheduler(limits.maxConcurrentJobs);
  const live = new LiveJobs(context);

  return {
    async recover() {
      for (const job of await store.listUnfinished()) {
        if (live.has(job.jobId)) continue; // this process's own, started since a failed first try
        const message =
          job.status === "running"
            ? "The server restarted while this job was running, so it stopped before finishing."
            : "The server restarted before this job could start.";
        await end(job.jobId, job.owner, interrupted(message));
      }
    },
    async submit(job) {
      const signal = live.add(job.jobId, job.owner);
      scheduler.enqueue(job.jobId, () => live.run(job, signal));
    },
    stop(jobId) {
      scheduler.remove(jobId);
      live.abort(jobId);
      live.delete(jobId);
    },
    close: () => live.close(() => scheduler.close()),
  };
};

/**
 * A FIFO queue that runs at most `maxConcurrent` jobs (at least one) at a time. A run starts on a
 * later turn of the event loop, never inside `enqueue`, so the caller can answer first.
 */
export function createScheduler(maxConcurrent: number) {
  const queue = new Map<string, () => Promise<void>>(); // a Map keeps insertion order: FIFO
  const active = new Set<Promise<void>>();
  let closed = false;

  function pump(): void {
    for (const [jobId, run] of queue) {
      if (closed || active.size >= Math.max(1, maxConcurrent)) return;
      queue.delete(jobId);
      // a run reports its own failures; this catch only keeps a bug from stopping the queue
      const p: Promise<void> = new Promise(setImmediate)
        .then(run)
        .catch(() => {})
        .finally(() => {
          active.delete(p);
          pump();
        });
      active.add(p);
    }
  }

  return {
    enqueue(jobId: string, run: () => Promise<void>): void {
      if (closed) return;
      queue.set(jobId, run);
      pump();
    },
    /** Takes a job out of the queue; false when it was not waiting (running or unknown). */
    remove: (jobId: string): boolean => queue.delete(jobId),
    /** Empties the queue (returning the ids that were waiting) and waits for the running jobs to end. */
    async close(): Promise<string[]> {
      closed = true;
      const dropped = [...queue.keys()];
      queue.clear();
      await Promise.all([...active]);
      return dropped;
    },
  };
}

const storageFull = serverFailure(
  "internal",
  "The analysis stopped because the server's job storage is full.",
  `Try again with ${TOOL.startBulk} once old jobs have expired or space has been freed.`,
);
const storeLost = serverFailure(
  "store_unavailable",
  "The job store became unreachable while this job ran, so it stopped before finishing.",
);
const unexpected = serverFailure(
  "internal",
  "The analysis stopped on an unexpected error.",
  `Try again with ${TOOL.startBulk}; if it fails again, check the file for unusual content.`,
);

/** What a failed run's end says: a job's own failure is not retryable, the server's are. */
function failureOf(error: unknown): Failed["payload"] {
  if (error instanceof StoreUnavailableError) return storeLost;
  if (error instanceof StorageFullError) return storageFull;
  if (!(error instanceof JobFailure)) return unexpected;
  const { code, message, hint } = error;
  return { code, message, ...(hint === undefined ? {} : { hint }), retryable: false };
}
