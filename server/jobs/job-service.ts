/**
 * The job system: validates a bulk analysis, creates the job within the subject's quotas
 * (quotas.ts), hands it to an executor that runs it through its stages (in this process, or in
 * BullMQ workers), and answers reads through one access gate. On start the executor ends the jobs
 * nobody will run any more; old jobs expire; a job can be deleted on request. Its own failures (a
 * store that refuses a write, a failing listener) go to `onError`, and a job whose final write
 * failed is ended again every second until the store takes it, and reads as ended meanwhile. A
 * store that cannot be reached makes every call answer `store_unavailable` at once; `health()`
 * says whether it answers, and whether it has room.
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { isFinished } from "../../shared/job-view.js";
import {
  URI,
  type CancelJobInput,
  type CancelJobOutput,
  type DeleteJobInput,
  type DeleteJobOutput,
  type StartBulkArgs,
  type StartBulkResult,
} from "../../shared/tools.js";
import type { MatchGifts } from "../gifts/matcher.js";
import { createGate } from "./access.js";
import type { Caller } from "./caller.js";
import type { CreateExecutor, Failed } from "./executor.js";
import { createInProcessExecutor } from "./executor-in-process.js";
import { createJobLog, type JobEventNotice } from "./job-log.js";
import { resolveLimits, type JobLimits } from "./limits.js";
import { fail, ok, storeUnavailable, unknownJob, type Outcome } from "./outcomes.js";
import { checkQuotas, createQuota } from "./quotas.js";
import { createReads, type JobReads } from "./reads.js";
import { createResultSources, type OpenResult } from "../files/export/result-source.js";
import { createRelay } from "./relay.js";
import { stagePlan } from "./runner/stages.js";
import { jobTexts, type Locale } from "./runner/texts.js";
import { planStart } from "./start-plan.js";
import { QuotaExceededError, foldOf, inputBytes, type JobStore } from "./store.js";
import { StorageFullError, StoreUnavailableError } from "../store-errors.js";
import type { JobFold } from "../../shared/job-reducer.js";
import { createWaiters } from "./waiters.js";

/** The job system's calls: the read calls (getEvents, getResult, readResult, waitFor) are reads.ts's. */
export type JobService = JobReads & {
  /** The limits in force, for texts that state them. */
  readonly limits: JobLimits;
  start(args: StartBulkArgs, caller: Caller, options?: StartOptions): Promise<Outcome<StartBulkResult>>;
  /** A result to write into a file: a finished job's, or a running one's people so far (files/export). */
  openResult: OpenResult;
  /** The access gate's answer alone: `unknown_job` unless `caller` may read the job. */
  checkAccess(jobId: string, caller: Caller): Promise<Outcome<null>>;
  /**
   * The access gate's answer, and from now on the events other processes append to the job reach
   * this one's listeners too (as for jobs created here): for a stream that follows a job started
   * on another instance.
   */
  follow(jobId: string, caller: Caller): Promise<Outcome<null>>;
  cancel(args: z.infer<typeof CancelJobInput>, caller: Caller): Promise<Outcome<z.infer<typeof CancelJobOutput>>>;
  /** Deletes one of the caller's jobs with all its data, canceling it first when it has not ended. */
  delete(args: z.infer<typeof DeleteJobInput>, caller: Caller): Promise<Outcome<z.infer<typeof DeleteJobOutput>>>;
  /** Whether the store answers, for /healthz. */
  health(): Promise<JobHealth>;
  /**
   * Subscribes to every appended event, by any process (or, with `appendedHere`, by this one
   * only: no events are read back from the store for it); returns the unsubscribe function.
   */
  onEvent(listener: (notice: JobEventNotice) => void, options?: { appendedHere?: boolean }): () => void;
  close(): Promise<void>;
};

/** The job system's state as /healthz reports it. */
type JobHealth = { store: "ok" } | { store: "unreachable" | "full"; reason: string };

/** How long after a failed write of a job's end it is written again, in ms. */
const UNENDED_RETRY_MS = 1000;
/** How long /healthz waits for the store to answer, in ms. */
const PING_TIMEOUT_MS = 2000;

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
  /** Where jobs run: in this process by default (see executor-in-process.ts). */
  executor?: CreateExecutor;
};

/** ≥128 random bits, so a job id cannot be guessed. */
const newJobId = () => `job_${randomBytes(16).toString("base64url")}`;

/**
 * Builds the job service over `store`. Jobs left unfinished that nobody will run are ended as
 * interrupted before the first call is answered; `close()` ends this process's jobs the same way.
 */
export function createJobService({
  store,
  match,
  limits: overrides,
  now = Date.now,
  onError = () => {},
  executor: createExecutor = createInProcessExecutor,
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
  const localListeners = new Set<(notice: JobEventNotice) => void>();
  const tell = (to: Set<(notice: JobEventNotice) => void>, notice: JobEventNotice) => {
    for (const listener of [...to]) {
      try {
        listener(notice);
      } catch (error) {
        // one failing subscriber must not keep the event from the others
        report(`a listener of job ${notice.event.jobId}`)(error);
      }
    }
  };
  const waiters = createWaiters(limits.maxWaitingPolls);
  // events appended by other processes (workers) reach this one's listeners too
  const relay = createRelay(
    store,
    (notice) => tell(listeners, notice),
    report("reading back events another process appended"),
  );
  // where several processes share the store, their appends wake this one's long polls too
  const unwatch = store.watch?.((jobId) => {
    waiters.wake(jobId);
    // read back only for listeners that want other processes' events
    if (listeners.size > 0) relay.wake(jobId);
  });
  const log = createJobLog({
    store,
    now,
    publish: (notice) => {
      relay.offer(notice);
      tell(localListeners, notice);
    },
    wake: (jobId) => waiters.wake(jobId),
  });
  const gate = createGate(store, () => now() - limits.retentionMs);
  /** Jobs whose ending could not be written (since `at`); each sweep (and close) writes it again. */
  const unended = new Map<string, { owner: Caller; failed: Failed; at: number }>();

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
      const first = !unended.has(jobId);
      // told once per job, not at every retry
      if (first) report(`ending job ${jobId}; it is retried until the store takes it`)(error);
      unended.set(jobId, { owner, failed, at: unended.get(jobId)?.at ?? now() });
      // its readers see it ended from now on (reads.ts); those waiting are told at once
      if (first) waiters.wake(jobId);
      retryUnended();
    }
  }
  const expire = () => store.expire(now() - limits.retentionMs).catch(report("deleting expired jobs"));
  async function sweep() {
    for (const [jobId, { owner, failed }] of [...unended]) await end(jobId, owner, failed);
    await expire();
  }
  let closing: Promise<void> | undefined;
  const executor = createExecutor({ store, log, limits, match, now, report, end });

  let recovered = false;
  let recoveryFailures = 0;
  /** The executor's start-up recovery; false when the store could not list the jobs (retried later). */
  async function recover(): Promise<boolean> {
    try {
      await executor.recover();
      return true;
    } catch (error) {
      // told once, not at every retry
      if (recoveryFailures++ === 0) report("listing the jobs an earlier process left unfinished")(error);
      retryUnended();
      return false;
    }
  }
  const ready = (async () => {
    recovered = await recover();
    await expire();
  })();
  const sweeper = setInterval(() => void sweep(), limits.sweepIntervalMs);
  sweeper.unref();

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

  const reads = createReads(store, gate, waiters, ready, (jobId) => unended.get(jobId));

  return {
    limits,
    getEvents: tracked(reads.getEvents),
    waitFor: tracked(reads.waitFor),
    getResult: tracked(reads.getResult),
    readResult: tracked(reads.readResult),
    openResult: tracked(createResultSources(store, gate, ready)),
    checkAccess: tracked(async (jobId: string, caller: Caller) => {
      await ready;
      const gated = await gate(jobId, caller);
      return gated.ok ? ok(null) : gated;
    }),

    start: tracked(async (args: StartBulkArgs, caller: Caller, options: StartOptions = {}) => {
      await ready;
      if (closing) return fail<StartBulkResult>("internal", "The server is shutting down.", "Try again in a moment.");
      const plan = await planStart(args, limits);
      if (!plan.ok) return plan;
      const { input, estimatedRows } = plan.value;
      const startedAt = now();
      const jobId = newJobId();
      const owner: Caller =
        caller.sessionId === undefined
          ? { subject: caller.subject }
          : { subject: caller.subject, sessionId: caller.sessionId };
      const texts = jobTexts(options.locale ?? "en");
      const stages = stagePlan(texts);
      let fold: JobFold;
      try {
        fold = await log.create(
          { jobId, owner, input, createdAt: startedAt },
          {
            type: "job.created",
            payload: {
              kind: "bulk_gift_analysis",
              title: texts.title(input.occasion, texts.count(estimatedRows)),
              stages,
            },
          },
          createQuota(limits, startedAt),
        );
      } catch (error) {
        if (!(error instanceof QuotaExceededError)) throw error;
        // the store found no room as it wrote: say which limit it was
        const refusal = await checkQuotas(store, caller.subject, inputBytes(input), limits, startedAt);
        // a job that ended since the write made room again
        return refusal.ok
          ? fail("quota_exceeded", "Too many analyses were started at the same moment.", "Start this one again.")
          : refusal;
      }
      // followed for listeners of other processes' events, if any: with none, there is nothing to relay
      if (listeners.size > 0) relay.follow(owner, fold);
      await executor.submit({ jobId, owner, plan: plan.value, paceMs: options.paceMs, locale: options.locale });
      return ok({ jobId, status: fold.status, stages, resultUri: URI.jobResult(jobId) });
    }),

    cancel: tracked(
      async ({ jobId }: z.infer<typeof CancelJobInput>, caller: Caller): ReturnType<JobService["cancel"]> => {
        await ready;
        const gated = await gate(jobId, caller);
        if (!gated.ok) return gated;
        // stopped here, its end not yet written: it has ended as readers are told
        if (unended.has(jobId)) return ok({ jobId, status: "failed" as const, changed: false });
        const appended = await log.append(jobId, gated.value.owner, [
          { type: "job.canceled", payload: { reason: "Canceled on request." } },
        ]);
        if (!appended.ok) return ok({ jobId, status: appended.fold.status, changed: false });
        executor.stop(jobId);
        unended.delete(jobId);
        return ok({ jobId, status: appended.fold.status, changed: true });
      },
    ),

    delete: tracked(
      async ({ jobId }: z.infer<typeof DeleteJobInput>, caller: Caller): ReturnType<JobService["delete"]> => {
        await ready;
        const gated = await gate(jobId, caller);
        if (!gated.ok) return gated;
        // nothing is written before the delete (no cancel event): on a full disk the delete is
        // what makes room. The job stops here, or (run elsewhere) at its next write.
        const canceled = !isFinished(gated.value.status) && !unended.has(jobId);
        executor.stop(jobId);
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
        const reason = error instanceof Error ? error.message : String(error);
        return { store: error instanceof StorageFullError ? "full" : "unreachable", reason };
      } finally {
        clearTimeout(timer);
      }
    },

    async follow(jobId, caller) {
      const job = await gate(jobId, caller);
      if (!job.ok) return job;
      if (!isFinished(job.value.status)) relay.follow(job.value.owner, await foldOf(store, job.value));
      return ok(null);
    },

    onEvent(listener, { appendedHere = false } = {}) {
      const to = appendedHere ? localListeners : listeners;
      to.add(listener);
      return () => void to.delete(listener);
    },

    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        clearTimeout(retry);
        await ready;
        await executor.close();
        unwatch?.();
        waiters.close();
        while (inflight.size > 0) await Promise.allSettled([...inflight]);
        await executor.close(); // ends jobs created by a start that was under way when closing began
        for (const [jobId, { owner, failed }] of [...unended]) await end(jobId, owner, failed);
        closed = true;
        await store.close();
      })();
      return closing;
    },
  };
}
