/**
 * The job system: validates a bulk analysis, creates the job, runs it through its stages under a
 * concurrency limit, and answers reads through one access gate. After a restart it ends the jobs
 * the previous process left unfinished as `interrupted`; old jobs expire. Its own failures (a
 * store that refuses a write, a failing listener) go to `onError`, and a job whose final write
 * failed is ended again every second until the store takes it. A store that cannot be reached
 * makes every call answer `store_unavailable` at once; `health()` says whether it answers. Each
 * subject's starts are checked against its quotas (quotas.ts), and a job can be deleted on request.
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { isFinished, type JobView } from "../../shared/job-view.js";
import {
  TOOL,
  URI,
  type CancelJobInput,
  type CancelJobOutput,
  type DeleteJobInput,
  type DeleteJobOutput,
  type GetJobEventsInput,
  type GetJobEventsResult,
  type GetJobResultInput,
  type GetJobResultResult,
  type JobResult,
  type StartBulkArgs,
  type StartBulkResult,
  type WaitForJobInput,
  type WaitForJobOutput,
} from "../../shared/tools.js";
import type { MatchGifts } from "../gifts/matcher.js";
import { createGate, type Caller } from "./access.js";
import { createJobLog, type JobEventNotice } from "./job-log.js";
import { resolveLimits, type JobLimits } from "./limits.js";
import { fail, ok, storeUnavailable, unknownJob, type Outcome } from "./outcomes.js";
import { checkQuotas } from "./quotas.js";
import { createReads } from "./reads.js";
import { JobFailure, JobStopped, runBulkAnalysis, type BulkRun } from "./runner/bulk-analysis.js";
import { createSliceGate } from "./runner/slice-gate.js";
import { stagePlan } from "./runner/stages.js";
import { jobTexts, type Locale } from "./runner/texts.js";
import { createScheduler } from "./scheduler.js";
import { planStart } from "./start-plan.js";
import type { EventDraft } from "./state-machine.js";
import { StoreUnavailableError, inputBytes, type JobStore } from "./store.js";
import { createWaiters } from "./waiters.js";

export type JobService = {
  /** The limits in force, for texts that state them. */
  readonly limits: JobLimits;
  start(args: StartBulkArgs, caller: Caller, options?: StartOptions): Promise<Outcome<StartBulkResult>>;
  /** Events after `afterSeq`; with `waitMs`, resolves as soon as one exists (long poll) or time is up. */
  getEvents(
    args: z.output<typeof GetJobEventsInput>,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<Outcome<GetJobEventsResult>>;
  getResult(args: z.output<typeof GetJobResultInput>, caller: Caller): Promise<Outcome<GetJobResultResult>>;
  /** The full result, for the result resource. */
  readResult(jobId: string, caller: Caller): Promise<Outcome<JobResult>>;
  cancel(args: z.infer<typeof CancelJobInput>, caller: Caller): Promise<Outcome<z.infer<typeof CancelJobOutput>>>;
  /** Waits until the job ends or time is up, calling `onView` whenever the view changes. */
  waitFor(
    args: z.output<typeof WaitForJobInput>,
    caller: Caller,
    onView: (view: JobView) => void,
    signal?: AbortSignal,
  ): Promise<Outcome<z.infer<typeof WaitForJobOutput>>>;
  /** Deletes one of the caller's jobs with all its data, canceling it first when it has not ended. */
  delete(args: z.infer<typeof DeleteJobInput>, caller: Caller): Promise<Outcome<z.infer<typeof DeleteJobOutput>>>;
  /** Whether the store answers, for /healthz. */
  health(): Promise<JobHealth>;
  /** Subscribes to every appended event; returns the unsubscribe function. */
  onEvent(listener: (notice: JobEventNotice) => void): () => void;
  close(): Promise<void>;
};

/** The job system's state as /healthz reports it. */
type JobHealth = { store: "ok" } | { store: "unreachable"; reason: string };

/** How long after a failed write of a job's end it is written again, in ms. */
const UNENDED_RETRY_MS = 1000;
/** How long /healthz waits for the store to answer, in ms. */
const PING_TIMEOUT_MS = 2000;

/** What a job that lost its store mid-run ends with, once the store is back. */
const storeLost = {
  code: "store_unavailable",
  message: "The job store became unreachable while this job ran, so it stopped before finishing.",
  hint: `Run the analysis again with ${TOOL.startBulk}.`,
  retryable: true,
};

/** How to run one job. */
type StartOptions = {
  /** A pause between slices of work, in ms, so that a developer can watch the job (see the harness). */
  paceMs?: number;
  /** The language of the job's words (stage labels, progress, summaries); English by default. */
  locale?: Locale;
};

export type JobServiceOptions = {
  /** Where jobs live. The service owns it from now on and closes it in `close()`. */
  store: JobStore;
  match: MatchGifts;
  limits?: Partial<JobLimits>;
  /** Wall-clock time in ms, for event timestamps, creation times and expiry. */
  now?: () => number;
  /** Told of every failure the service cannot answer a caller with; the server logs them. */
  onError?: (error: unknown, context: string) => void;
};

type Failed = Extract<EventDraft, { type: "job.failed" }>;
const interrupted = (message: string): Failed => ({
  type: "job.failed",
  payload: { code: "interrupted", message, hint: `Run the analysis again with ${TOOL.startBulk}.`, retryable: true },
});

/** ≥128 random bits, so a job id cannot be guessed. */
const newJobId = () => `job_${randomBytes(16).toString("base64url")}`;

/**
 * Builds the job service over `store`. Jobs left unfinished by an earlier process are ended as
 * interrupted before the first call is answered; `close()` ends this process's jobs the same way.
 */
export function createJobService({
  store,
  match,
  limits: overrides,
  now = Date.now,
  onError = () => {},
}: JobServiceOptions): JobService {
  const limits = resolveLimits(overrides);
  const report = (context: string) => (error: unknown) => {
    try {
      onError(error, context);
    } catch {
      // the reporter's own failure has nowhere left to go
    }
  };
  const listeners = new Set<(notice: JobEventNotice) => void>();
  const waiters = createWaiters();
  // where several processes share the store, their appends wake this one's long polls too
  const unwatch = store.watch?.((jobId) => waiters.wake(jobId));
  const log = createJobLog({
    store,
    now,
    publish: (notice) => {
      for (const listener of [...listeners]) {
        try {
          listener(notice);
        } catch (error) {
          // one failing subscriber must not keep the event from the others
          report(`a listener of job ${notice.event.jobId}`)(error);
        }
      }
    },
    wake: (jobId) => waiters.wake(jobId),
  });
  const scheduler = createScheduler(limits.maxConcurrentJobs);
  // one slice of one job per turn of the event loop, however many jobs run
  const slices = createSliceGate();
  const gate = createGate(store, () => now() - limits.retentionMs);
  /** Jobs of this process that have not ended, with the switch that stops them. */
  const live = new Map<string, { owner: Caller; controller: AbortController }>();
  /** Jobs whose ending could not be written; each sweep (and close) writes it again. */
  const unended = new Map<string, { owner: Caller; failed: Failed }>();

  let retry: ReturnType<typeof setTimeout> | undefined;
  /** Writes the ends that failed again soon: a store that was down for a moment takes them then. */
  function retryUnended() {
    if (retry !== undefined || closing) return;
    retry = setTimeout(() => {
      retry = undefined;
      void (async () => {
        if (!recovered) recovered = await recover();
        for (const [jobId, { owner, failed }] of [...unended]) await end(jobId, owner, failed);
      })();
    }, UNENDED_RETRY_MS);
    retry.unref();
  }
  /** Ends a job as failed; when the store refuses, the job is kept to be ended again later. */
  async function end(jobId: string, owner: Caller, failed: Failed): Promise<void> {
    try {
      await log.append(jobId, owner, [failed]);
      unended.delete(jobId);
    } catch (error) {
      // told once per job, not at every retry
      if (!unended.has(jobId)) report(`ending job ${jobId}; it is retried until the store takes it`)(error);
      unended.set(jobId, { owner, failed });
      retryUnended();
    }
  }
  const expire = () => store.expire(now() - limits.retentionMs).catch(report("deleting expired jobs"));
  async function sweep() {
    for (const [jobId, { owner, failed }] of [...unended]) await end(jobId, owner, failed);
    await expire();
  }
  let closing: Promise<void> | undefined;

  // one process per store: whatever is still unfinished was cut off when the last one stopped
  let recovered = false;
  let recoveryFailures = 0;
  /** Ends those jobs as interrupted; false when the store could not list them (retried later). */
  async function recover(): Promise<boolean> {
    const unfinished = await store.listUnfinished().catch((error) => {
      // told once, not at every retry
      if (recoveryFailures++ === 0) report("listing the jobs an earlier process left unfinished")(error);
      return undefined;
    });
    if (unfinished === undefined) {
      retryUnended();
      return false;
    }
    for (const job of unfinished) {
      if (live.has(job.jobId)) continue; // this process's own, started since

      const message =
        job.status === "running"
          ? "The server restarted while this job was running, so it stopped before finishing."
          : "The server restarted before this job could start.";
      await end(job.jobId, job.owner, interrupted(message));
    }
    return true;
  }
  const ready = (async () => {
    recovered = await recover();
    await expire();
  })();
  const sweeper = setInterval(() => void sweep(), limits.sweepIntervalMs);
  sweeper.unref();

  async function execute(
    jobId: string,
    owner: Caller,
    run: Omit<BulkRun, "signal" | "emit" | "putChunk" | "gate">,
    controller: AbortController,
  ) {
    try {
      if (controller.signal.aborted) return;
      await runBulkAnalysis({
        ...run,
        gate: slices,
        signal: controller.signal,
        // a chunk refused because the job has just ended fails the run; its end is already recorded
        putChunk: (index, body) => store.putResultChunk(jobId, index, body),
        emit: async (drafts, head) => {
          const appended = await log.append(jobId, owner, drafts, head);
          if (!appended.ok) throw new JobStopped(appended.reason);
        },
      });
    } catch (error) {
      // stopped means canceled (already recorded) or closing (close records it)
      if (error instanceof JobStopped || controller.signal.aborted) return;
      // a lost store was told of when the connection dropped
      if (!(error instanceof JobFailure || error instanceof StoreUnavailableError))
        report(`running job ${jobId}`)(error);
      const payload: Failed["payload"] =
        error instanceof StoreUnavailableError
          ? storeLost
          : error instanceof JobFailure
            ? {
                code: error.code,
                message: error.message,
                ...(error.hint === undefined ? {} : { hint: error.hint }),
                retryable: false,
              }
            : {
                code: "internal",
                message: "The analysis stopped on an unexpected error.",
                hint: `Try again with ${TOOL.startBulk}; if it fails again, check the file for unusual content.`,
                retryable: true,
              };
      await end(jobId, owner, { type: "job.failed", payload });
    } finally {
      live.delete(jobId);
    }
  }

  /** Stops this process's unfinished jobs and records them as interrupted. */
  async function endLiveJobs() {
    const ending = [...live.entries()];
    for (const [, job] of ending) job.controller.abort();
    await scheduler.close();
    for (const [jobId, job] of ending) {
      live.delete(jobId);
      await end(jobId, job.owner, interrupted("The server shut down before this job finished."));
    }
  }

  // calls in flight, so that close() lets them finish before it closes the store
  const inflight = new Set<Promise<unknown>>();
  let closed = false;
  function tracked<A extends unknown[], T>(
    call: (...args: A) => Promise<Outcome<T>>,
  ): (...args: A) => Promise<Outcome<T>> {
    return async (...args) => {
      if (closed) return fail("internal", "The job service has shut down.", "Try again once the server is back.");
      const p = call(...args);
      inflight.add(p);
      try {
        return await p;
      } catch (error) {
        if (error instanceof StoreUnavailableError) return storeUnavailable();
        throw error;
      } finally {
        inflight.delete(p);
      }
    };
  }

  const reads = createReads(store, gate, waiters, ready);

  return {
    limits,
    getEvents: tracked(reads.getEvents),
    waitFor: tracked(reads.waitFor),
    getResult: tracked(reads.getResult),
    readResult: tracked(reads.readResult),

    start: tracked(async (args: StartBulkArgs, caller: Caller, options: StartOptions = {}) => {
      await ready;
      if (closing) return fail<StartBulkResult>("internal", "The server is shutting down.", "Try again in a moment.");
      const plan = planStart(args, limits);
      if (!plan.ok) return plan;
      const { input, estimatedRows } = plan.value;
      const quota = await checkQuotas(store, caller.subject, inputBytes(input), limits, now());
      if (!quota.ok) return quota;
      const jobId = newJobId();
      const owner: Caller =
        caller.sessionId === undefined
          ? { subject: caller.subject }
          : { subject: caller.subject, sessionId: caller.sessionId };
      const texts = jobTexts(options.locale ?? "en");
      const stages = stagePlan(texts);
      const fold = await log.create(
        { jobId, owner, input, createdAt: now() },
        {
          type: "job.created",
          payload: {
            kind: "bulk_gift_analysis",
            title: texts.title(input.occasion, texts.count(estimatedRows)),
            stages,
          },
        },
      );
      const controller = new AbortController();
      live.set(jobId, { owner, controller });
      const run = { ...plan.value, jobId, maxRows: limits.maxRows, match, paceMs: options.paceMs, texts };
      scheduler.enqueue(jobId, () => execute(jobId, owner, run, controller));
      return ok({ jobId, status: fold.status, stages, resultUri: URI.jobResult(jobId) });
    }),

    cancel: tracked(
      async ({ jobId }: z.infer<typeof CancelJobInput>, caller: Caller): ReturnType<JobService["cancel"]> => {
        await ready;
        const gated = await gate(jobId, caller);
        if (!gated.ok) return gated;
        const appended = await log.append(jobId, gated.value.owner, [
          { type: "job.canceled", payload: { reason: "Canceled on request." } },
        ]);
        if (!appended.ok) return ok({ jobId, status: appended.fold.status, changed: false });
        scheduler.remove(jobId);
        live.get(jobId)?.controller.abort();
        live.delete(jobId);
        unended.delete(jobId);
        return ok({ jobId, status: appended.fold.status, changed: true });
      },
    ),

    delete: tracked(
      async ({ jobId }: z.infer<typeof DeleteJobInput>, caller: Caller): ReturnType<JobService["delete"]> => {
        await ready;
        const gated = await gate(jobId, caller);
        if (!gated.ok) return gated;
        let canceled = false;
        if (!isFinished(gated.value.status)) {
          const appended = await log.append(jobId, gated.value.owner, [
            { type: "job.canceled", payload: { reason: "Deleted on request." } },
          ]);
          canceled = appended.ok;
        }
        scheduler.remove(jobId);
        live.get(jobId)?.controller.abort();
        live.delete(jobId);
        unended.delete(jobId);
        if (!(await store.delete(jobId))) return unknownJob(jobId);
        waiters.wake(jobId);
        return ok({ jobId, canceled });
      },
    ),

    async health() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StoreUnavailableError("no answer in time")), PING_TIMEOUT_MS);
      });
      try {
        await Promise.race([store.ping(), late]);
        return { store: "ok" };
      } catch (error) {
        return { store: "unreachable", reason: error instanceof Error ? error.message : String(error) };
      } finally {
        clearTimeout(timer);
      }
    },

    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        clearTimeout(retry);
        await ready;
        await endLiveJobs();
        unwatch?.();
        waiters.close();
        while (inflight.size > 0) await Promise.allSettled([...inflight]);
        await endLiveJobs(); // created by a start that was under way when closing began
        for (const [jobId, { owner, failed }] of [...unended]) await end(jobId, owner, failed);
        closed = true;
        await store.close();
      })();
      return closing;
    },
  };
}
