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
import type { z } from "zod";
import { isFinished } from "../../shared/job-view.js";
import type {
  CancelJobInput,
  CancelJobOutput,
  ClaimFollowUpOutput,
  DeleteJobInput,
  DeleteJobOutput,
  StartBulkArgs,
  StartBulkResult,
} from "../../shared/tools.js";
import type { MatchGifts } from "../gifts/matcher.js";
import { createResultSources, type OpenResult } from "../files/export/result-source.js";
import { createGate, SeenJobs } from "./access.js";
import type { Caller } from "./caller.js";
import { Endings } from "./endings.js";
import type { CreateExecutor, SliceHook } from "./executor.js";
import { createInProcessExecutor } from "./executor-in-process.js";
import { createJobLog, type JobEventNotice, type JobLog } from "./job-log.js";
import { resolveLimits, type JobLimits } from "../limits.js";
import { fail, ok, storeUnavailable, type Outcome } from "../outcomes.js";
import { checkQuotas } from "./quotas.js";
import { createJobList, createReads, type JobReads, type ListJobs } from "./reads.js";
import { createRelay, EventListeners, type Relay } from "./relay.js";
import { StorageFullError, StoreUnavailableError } from "../store-errors.js";
import { foldOf, type JobStore } from "./store.js";
import { systemTimers, type Timers } from "./timers.js";
import { Waiters } from "./waiters.js";
import { JobWrites, type StartOptions } from "./writes.js";

/** The job system's calls: the read calls (getEvents, getResult, readResult, waitFor) are reads.ts's. */
export type JobService = JobReads & {
  /** The limits in force, for texts that state them. */
  readonly limits: JobLimits;
  start(args: StartBulkArgs, caller: Caller, options?: StartOptions): Promise<Outcome<StartBulkResult>>;
  /**
   * Whether `caller`'s quotas (jobs unfinished, starts this hour, bytes kept) leave room for a start
   * now: asked before costly work for a start (downloading and reading a file); `start` checks
   * again as it writes the job.
   */
  admits(caller: Caller): Promise<Outcome<void>>;
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
  /** The caller's jobs, newest first, a page at a time: only those the access gate lets them read. */
  list: ListJobs;
  /**
   * Claims the follow-up of one of the caller's jobs (the message that tells the chat it ended):
   * `claimed` is true for one call per job, once it has ended, whichever process answers it.
   */
  claimFollowUp(jobId: string, caller: Caller): Promise<Outcome<z.infer<typeof ClaimFollowUpOutput>>>;
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

/** How long /healthz waits for the store to answer, in ms. */
const PING_TIMEOUT_MS = 2000;

export type JobServiceOptions = {
  /** Where jobs live. The service owns it from now on and closes it in `close()`. */
  store: JobStore;
  match: MatchGifts;
  limits?: Partial<JobLimits>;
  /** Wall-clock time in ms, for event timestamps, creation times and expiry. */
  now?: () => number;
  /** The timers of sweeps, retries, long polls and the store's ping; Node's by default. */
  timers?: Timers;
  /** Told of every failure the service cannot answer a caller with; the server logs them. */
  onError?: (error: unknown, context: string) => void;
  /** Where jobs run: in this process by default (see executor-in-process.ts). */
  executor?: CreateExecutor;
  /**
   * Awaited before each slice of the work of every job this service's executor runs, with the
   * job's `runOptions` (StartOptions); none by default. The app's root plugs development aids in here.
   */
  beforeSlice?: SliceHook;
};

/**
 * Builds the job service over `store`. Jobs left unfinished that nobody will run are ended as
 * interrupted before the first call is answered; `close()` ends this process's jobs the same way.
 */
export function createJobService(options: JobServiceOptions): JobService {
  const {
    store,
    match,
    now = Date.now,
    timers = systemTimers,
    executor: createExecutor = createInProcessExecutor,
    beforeSlice,
  } = options;
  const limits = resolveLimits(options.limits);
  const report = reporterOf(options.onError ?? (() => {}));
  const waiters = new Waiters({ max: limits.maxWaitingPolls, timers });
  const { log, listeners, relay, unwatch } = wireEvents(store, now, waiters, report);
  const expiredBefore = () => now() - limits.retentionMs;
  const gate = createGate(store, expiredBefore);
  const endings: Endings = new Endings({
    log,
    wake: (jobId) => waiters.wake(jobId),
    report,
    now,
    timers,
    recover: () => executor.recover(),
  });
  const executor = createExecutor({ store, log, limits, match, now, report, end: endings.end, beforeSlice });
  const expire = () => store.expire(expiredBefore()).then(() => {}, report("deleting expired jobs"));
  const ready = endings.recover().then(expire);
  const sweeper = timers.setInterval(() => void endings.writeAgain().then(expire), limits.sweepIntervalMs);
  sweeper.unref();

  const calls = new Calls();
  let closing: Promise<void> | undefined;
  const context = { store, limits, now, log, gate, endings, executor, waiters, relay, listeners, ready };
  const writes = new JobWrites({ ...context, closing: () => closing !== undefined });
  const reads = createReads(store, gate, waiters, ready, endings.unended);
  return {
    limits,
    getEvents: calls.track(reads.getEvents),
    waitFor: calls.track(reads.waitFor),
    getResult: calls.track(reads.getResult),
    readResult: calls.track(reads.readResult),
    openResult: calls.track(createResultSources(store, gate, ready)),
    checkAccess: calls.track(async (jobId: string, caller: Caller) => {
      await ready;
      const gated = await gate(jobId, caller);
      return gated.ok ? ok(null) : gated;
    }),
    start: calls.track(writes.start),
    admits: calls.track(async (caller: Caller) => {
      await ready;
      return checkQuotas(store, caller.subject, 0, limits, now());
    }),
    cancel: calls.track(writes.cancel),
    delete: calls.track(writes.delete),
    list: calls.track(createJobList(store, new SeenJobs(store, gate, endings.unended), expiredBefore, ready)),
    claimFollowUp: calls.track(writes.claimFollowUp),
    health: () => ping(store, timers),
    follow: calls.track(async (jobId: string, caller: Caller) => {
      const job = await gate(jobId, caller);
      if (!job.ok) return job;
      if (!isFinished(job.value.status)) relay.follow(job.value.owner, await foldOf(store, job.value));
      return ok(null);
    }),
    onEvent: (listener, { appendedHere = false } = {}) => listeners.add(listener, { appendedHere }),
    close() {
      endings.stop();
      timers.clear(sweeper);
      closing ??= (async () => {
        await ready;
        await executor.close();
        unwatch?.();
        waiters.close();
        await calls.settle();
        await executor.close(); // ends jobs created by a start that was under way when closing began
        await endings.writeAgain();
        calls.shut();
        await store.close();
      })();
      return closing;
    },
  };
}

/** A reporter of failures for `context`, to `onError`, whose own failure goes nowhere. */
function reporterOf(onError: (error: unknown, context: string) => void) {
  return (context: string) => (error: unknown) => {
    try {
      onError(error, context);
    } catch {
      // the reporter's own failure has nowhere left to go
    }
  };
}

/**
 * The job log, the one writer of events, and where its events go: this process's listeners, the
 * relay (for listeners of every process's events) and the long polls; where several processes
 * share the store, their appends wake this one's long polls and reach its listeners too.
 */
function wireEvents(
  store: JobStore,
  now: () => number,
  waiters: Waiters,
  report: (context: string) => (error: unknown) => void,
): { log: JobLog; listeners: EventListeners; relay: Relay; unwatch: (() => void) | undefined } {
  const listeners = new EventListeners(report);
  // events appended by other processes (workers) reach this one's listeners too
  const relay = createRelay(store, listeners.tellEverywhere, report("reading back events another process appended"));
  const unwatch = store.watch?.((jobId) => {
    waiters.wake(jobId);
    // read back only for listeners that want other processes' events
    if (listeners.wantsRelayed()) relay.wake(jobId);
  });
  const log = createJobLog({
    store,
    now,
    publish: (notice) => {
      relay.offer(notice);
      listeners.tellHere(notice);
    },
    wake: (jobId) => waiters.wake(jobId),
  });
  return { log, listeners, relay, unwatch };
}

/** Whether the store answers within PING_TIMEOUT_MS, and has room. */
async function ping(store: JobStore, timers: Timers): Promise<JobHealth> {
  let timer: ReturnType<Timers["setTimeout"]> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = timers.setTimeout(() => reject(new StoreUnavailableError("no answer in time")), PING_TIMEOUT_MS);
  });
  try {
    await Promise.race([store.ping(), late]);
    return { store: "ok" };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { store: error instanceof StorageFullError ? "full" : "unreachable", reason };
  } finally {
    timers.clear(timer);
  }
}

/**
 * The service's calls in flight, so that closing lets them finish before it closes the store; once
 * shut, a call answers at once that the service has shut down. A store that cannot be reached makes
 * a call answer `store_unavailable`.
 */
class Calls {
  readonly #inflight = new Set<Promise<unknown>>();
  #shut = false;

  /** `call`, counted while in flight, answering for a store that cannot be reached. */
  track<A extends unknown[], T>(call: (...args: A) => Promise<Outcome<T>>): (...args: A) => Promise<Outcome<T>> {
    return async (...args) => {
      if (this.#shut) return fail("internal", "The job service has shut down.", "Try again once the server is back.");
      const p = call(...args);
      this.#inflight.add(p);
      try {
        return await p;
      } catch (error) {
        if (error instanceof StoreUnavailableError) return storeUnavailable();
        throw error;
      } finally {
        this.#inflight.delete(p);
      }
    };
  }

  async settle(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }

  /** From now on every call answers that the service has shut down. */
  shut(): void {
    this.#shut = true;
  }
}
