/**
 * The job system: creates a bulk analysis within its subject's quotas (jobs unfinished at once,
 * starts in a rolling hour, bytes kept), hands it to an executor (this process, or BullMQ workers)
 * and answers reads through one access gate. Its own failures go to `onError`; a store that cannot
 * be reached makes every call answer `store_unavailable`.
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { isFinished } from "../../shared/job-view.js";
import {
  TOOL,
  URI,
  type CancelJobOutput,
  type ClaimFollowUpOutput,
  type DeleteJobOutput,
  type StartBulkArgs,
  type StartBulkResult,
} from "../../shared/tools.js";
import type { MatchGifts } from "../gifts/matcher.js";
import { createResultSources } from "../files/export/result-source.js";
import { createGate } from "./access.js";
import type { Caller } from "./caller.js";
import { Endings } from "./endings.js";
import { createInProcessExecutor, type CreateExecutor, type RunOptions, type SliceHook } from "./executor.js";
import { JobLog, type JobEventNotice } from "./job-log.js";
import { megabytes, readInputLimits, resolveLimits, type JobLimits } from "../limits.js";
import { count, fail, ok, retryable, storeUnavailable, unknownJob, type Outcome } from "../outcomes.js";
import { createReads } from "./reads.js";
import { Waiters } from "./waiters.js";
import { EventRelay } from "./relay.js";
import { stagePlan } from "./runner/progress.js";
import { jobTexts, type JobTexts, type Locale } from "./runner/texts.js";
import { planStart, type StartPlan } from "./start-plan.js";
import { StorageFullError, StoreUnavailableError } from "../store-errors.js";
import { foldOf, inputBytes, QuotaExceededError, type CreateQuota, type JobStore } from "./store.js";
import { systemTimers, type Timers } from "./timers.js";

export type StartOptions = {
  /** Handed to the service's `beforeSlice` hook wherever the job runs. */
  runOptions?: RunOptions;
  /** The language of the job's words; English by default. */
  locale?: Locale;
  /** The list is the staff-file reader's CSV, already held to the file's (larger) limits. */
  read?: boolean;
};

export type JobService = ReturnType<typeof createJobService>;

type JobHealth = { store: "ok" } | { store: "unreachable" | "full"; reason: string };

/** ≥128 random bits, so a job id cannot be guessed. */
const newJobId = () => `job_${randomBytes(16).toString("base64url")}`;

const PING_TIMEOUT_MS = 2000;

export type JobServiceOptions = {
  /** Where jobs live; the service closes it in `close()`. */
  store: JobStore;
  match: MatchGifts;
  limits?: Partial<JobLimits>;
  now?: () => number;
  timers?: Timers;
  /** Told of every failure the service cannot answer a caller with; the server logs them. */
  onError?: (error: unknown, context: string) => void;
  /** Where jobs run: in this process by default. */
  executor?: CreateExecutor;
  /** Awaited before each slice of every job's work, with its `runOptions` (development aids). */
  beforeSlice?: SliceHook;
};

function assemble(options: JobServiceOptions) {
  const {
    store,
    match,
    now = Date.now,
    timers = systemTimers,
    executor: createExecutor = createInProcessExecutor,
    beforeSlice,
  } = options;
  const limits = resolveLimits(options.limits);
  const onError = options.onError ?? (() => {});
  const report = (context: string) => (error: unknown) => {
    try {
      onError(error, context);
    } catch {
      // the reporter's own failure has nowhere left to go
    }
  };
  const waiters = new Waiters({ max: limits.maxWaitingPolls, timers });
  const wake = (jobId: string) => waiters.wake(jobId);
  // where several processes share the store, their appends wake this one's polls, and are read
  // back for the relay's listeners only when some want other processes' events
  const relay = new EventRelay(store, report);
  const unwatch = store.watch?.((jobId) => {
    wake(jobId);
    if (relay.wantsRelayed()) relay.wake(jobId);
  });
  const log = new JobLog({ store, now, publish: (notice) => relay.offer(notice), wake });
  const expiredBefore = () => now() - limits.retentionMs;
  const gate = createGate(store, expiredBefore);
  const endings: Endings = new Endings({ log, wake, report, now, timers, recover: () => executor.recover() });
  const executor = createExecutor({ store, log, limits, match, now, report, end: endings.end, beforeSlice });
  const expire = () => store.expire(expiredBefore()).then(() => {}, report("deleting expired jobs"));
  const ready = endings.recover().then(expire);
  const sweeper = timers.setInterval(() => void endings.writeAgain().then(expire), limits.sweepIntervalMs);
  sweeper.unref();
  const parts = { store, limits, now, timers, log, relay, unwatch, waiters, gate, endings, executor, ready };
  return { ...parts, expiredBefore, sweeper, calls: new Calls(ready) };
}

type Parts = ReturnType<typeof assemble>;

const HOUR_MS = 60 * 60 * 1000;

/** The room a job created at `now` must find; the store checks it as it creates the job. */
function createQuota(limits: JobLimits, now: number): CreateQuota {
  return {
    // a start exactly an hour ago no longer counts
    since: now - HOUR_MS + 1,
    maxUnfinished: limits.maxUnfinishedPerSubject,
    maxStartsSince: limits.maxStartsPerHour,
    maxBytes: limits.maxStoredBytesPerSubject,
  };
}

/** Which quota, if any, keeps `subject` from starting a job whose input takes `bytes`: what the store refused, told. */
async function checkQuotas(parts: Parts, subject: string, bytes: number, now: number): Promise<Outcome<void>> {
  const { store, limits } = parts;
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

/** Writes the job and its first event if the subject's quotas leave room. */
async function create(parts: Parts, jobId: string, owner: Caller, plan: StartPlan, texts: JobTexts) {
  const { limits, now, log } = parts;
  const { input, estimatedRows } = plan;
  const startedAt = now();
  try {
    const title = texts.title(input.occasion, texts.count(estimatedRows));
    const payload = { title, stages: stagePlan(texts), currency: input.currency ?? "USD" };
    const fold = await log.create(
      { jobId, owner, input, createdAt: startedAt },
      { type: "job.created", payload: { kind: "bulk_gift_analysis", ...payload } },
      createQuota(limits, startedAt),
    );
    return ok(fold);
  } catch (error) {
    if (!(error instanceof QuotaExceededError)) throw error;
    // say which limit it was; a job that ended since the write made room again
    const refusal = await checkQuotas(parts, owner.subject, inputBytes(input), startedAt);
    return refusal.ok
      ? fail("quota_exceeded", "Too many analyses were started at the same moment.", "Start this one again.")
      : refusal;
  }
}

/** The calls that change jobs, each for the job's owner only. */
function writeCalls(parts: Parts, closing: () => boolean) {
  const { store, limits, log, gate, endings, executor, waiters, relay } = parts;
  return {
    async start(args: StartBulkArgs, caller: Caller, options: StartOptions = {}): Promise<Outcome<StartBulkResult>> {
      if (closing()) return fail("internal", "The server is shutting down.", "Try again in a moment.");
      const plan = await planStart(args, options.read ? readInputLimits(limits) : limits);
      if (!plan.ok) return plan;
      const jobId = newJobId();
      const { subject, sessionId } = caller;
      const owner: Caller = sessionId === undefined ? { subject } : { subject, sessionId };
      const texts = jobTexts(options.locale ?? "en");
      const created = await create(parts, jobId, owner, plan.value, texts);
      if (!created.ok) return created;
      if (relay.wantsRelayed()) relay.follow(owner, created.value);
      await executor.submit({ jobId, owner, plan: plan.value, runOptions: options.runOptions, locale: options.locale });
      return ok({ jobId, status: created.value.status, stages: stagePlan(texts), resultUri: URI.jobResult(jobId) });
    },
    async cancel({ jobId }: { jobId: string }, caller: Caller): Promise<Outcome<z.infer<typeof CancelJobOutput>>> {
      const gated = await gate(jobId, caller);
      if (!gated.ok) return gated;
      // stopped here, its end not yet written: readers are told it has ended
      if (endings.unended(jobId)) return ok({ jobId, status: "failed" as const, changed: false });
      const appended = await log.append(jobId, gated.value.owner, [
        { type: "job.canceled", payload: { reason: "Canceled on request." } },
      ]);
      if (!appended.ok) return ok({ jobId, status: appended.fold.status, changed: false });
      executor.stop(jobId);
      endings.forget(jobId);
      return ok({ jobId, status: appended.fold.status, changed: true });
    },
    async delete({ jobId }: { jobId: string }, caller: Caller): Promise<Outcome<z.infer<typeof DeleteJobOutput>>> {
      const gated = await gate(jobId, caller);
      if (!gated.ok) return gated;
      // no cancel event first: on a full disk the delete is what makes room. The job stops
      // here, or (run elsewhere) at its next write.
      const canceled = !isFinished(gated.value.status) && !endings.unended(jobId);
      executor.stop(jobId);
      endings.forget(jobId);
      if (!(await store.delete(jobId))) return unknownJob(jobId);
      waiters.wake(jobId);
      return ok({ jobId, canceled });
    },
    /** `claimed` is true for one call per job once it has ended, whichever process answers it. */
    async claimFollowUp(jobId: string, caller: Caller): Promise<Outcome<z.infer<typeof ClaimFollowUpOutput>>> {
      const gated = await gate(jobId, caller);
      return gated.ok ? ok({ jobId, claimed: await store.claimFollowUp(jobId) }) : gated;
    },
  };
}

/**
 * Builds the job service. Jobs left unfinished that nobody will run are ended as interrupted before
 * the first call is answered; `close()` ends this process's jobs the same way.
 */
export function createJobService(options: JobServiceOptions) {
  const parts = assemble(options);
  const { store, limits, now, timers, relay, unwatch, waiters, gate, endings, executor, ready } = parts;
  const { expiredBefore, sweeper, calls } = parts;
  let closing: Promise<void> | undefined;
  return {
    limits,
    ...calls.trackAll({
      ...createReads(store, gate, waiters, endings.unended, expiredBefore),
      /** A result to write into a file (files/export). */
      openResult: createResultSources(store, gate),
      /** Whether `caller`'s quotas leave room for a start, asked before costly work (reading a file). */
      admits: async (caller: Caller) => checkQuotas(parts, caller.subject, 0, now()),
      ...writeCalls(parts, () => closing !== undefined),
      /** The gate's answer; from now on other processes' events of the job reach this one's listeners. */
      async follow(jobId: string, caller: Caller): Promise<Outcome<null>> {
        const job = await gate(jobId, caller);
        if (!job.ok) return job;
        if (!isFinished(job.value.status)) relay.follow(job.value.owner, await foldOf(store, job.value));
        return ok(null);
      },
    }),
    health: (): Promise<JobHealth> => ping(store, timers),
    /** Subscribes to every appended event, by any process or (`appendedHere`) this one only. */
    onEvent: (listener: (notice: JobEventNotice) => void, { appendedHere = false } = {}): (() => void) =>
      relay.add(listener, { appendedHere }),
    close(): Promise<void> {
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
 * The calls in flight, which closing lets finish before it closes the store. Each runs once `ready`
 * (the start-up recovery) has settled.
 */
class Calls {
  readonly #inflight = new Set<Promise<unknown>>();
  #shut = false;

  constructor(private readonly ready: Promise<void>) {}

  /** The same calls, each answered once `ready` has settled and tracked while in flight. */
  trackAll<C extends Record<string, (...args: never[]) => Promise<Outcome<unknown>>>>(calls: C): C {
    const track =
      (call: C[string]) =>
      async (...args: never[]) => {
        if (this.#shut) return fail("internal", "The job service has shut down.", "Try again once the server is back.");
        const p = this.ready.then(() => call(...args));
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
    return Object.fromEntries(Object.entries(calls).map(([name, call]) => [name, track(call as C[string])])) as C;
  }

  async settle(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }

  shut(): void {
    this.#shut = true;
  }
}
