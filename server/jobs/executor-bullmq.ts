/**
 * Job work in BullMQ workers, for a store several processes share (Redis): the instance that
 * creates a job queues it under the job's own id, and a worker in any process runs it against the
 * shared store. A worker watches the store, so a cancel made on any instance stops the job within
 * an append. BullMQ's locks find a worker that died mid-job; the job is handed on, and the next
 * worker ends it as interrupted. Start-up ends only the unfinished jobs the queue does not hold.
 * The queue sends on the store's command connection, with its deadlines; the worker waits for
 * Redis as long as it takes. Connection faults are the connections' watches' to tell, not errors.
 */
import { Queue, Worker, type Job } from "bullmq";
import { isFinished } from "../../shared/job-view.js";
import type { Caller } from "./caller.js";
import { interrupted, type CreateExecutor } from "./executor.js";
import { runJob } from "./run-job.js";
import {
  closeRedis,
  isConnectionFault,
  openRedis,
  openWorkerRedis,
  watchConnection,
  type ConnectionListener,
  type RedisConnection,
} from "../redis/connection.js";
import { createSliceGate } from "./runner/slice-gate.js";
import { jobTexts, type Locale } from "./runner/texts.js";
import { planStart } from "./start-plan.js";

export type BullmqExecutorOptions = {
  /** The Redis that holds the queue (the store's). */
  url: string;
  /**
   * The store's command connection, for the queue to share, so that the store's ping (/healthz)
   * speaks for the queue too; without it the queue opens one of its own on `url`.
   */
  connection?: RedisConnection;
  /** Told once when the worker's connection is lost and once when it is back. */
  onWorkerConnectionChange?: ConnectionListener;
  /** Put before the queue's keys; default "giftgenius:queue". */
  prefix?: string;
  /** Jobs this process runs at once; 0 runs none (a web-only instance). Default: the concurrency limit. */
  concurrency?: number;
  /** How long a worker's hold on a job lasts unless renewed, in ms (BullMQ's lockDuration); default 30 s. */
  lockMs?: number;
  /** How often workers look for jobs whose holder died, in ms (BullMQ's stalledInterval); default 30 s. */
  stalledCheckMs?: number;
  /** How often a job whose worker died is handed on before BullMQ gives it up; default 1. */
  maxStalledCount?: number;
  /**
   * How old an unfinished job the queue does not hold must be before it is ended, in ms: a job
   * is created before it is queued, and another instance may be between the two. Default 60 s.
   */
  graceMs?: number;
};

/** What a queued job carries: what the run needs that the store does not hold. */
type QueuedRun = { paceMs?: number; locale?: Locale };

/** The name of the BullMQ queue that holds jobs to run, under the prefix. */
export const JOB_QUEUE = "jobs";
/** States in which the queue still owns a job: some worker runs it or will. */
const OWNED = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);
const CUT_OFF = "The worker running this job stopped before finishing.";
/** How long closing waits for BullMQ's worker to close, in ms. */
const CLOSE_WAIT_MS = 5_000;

/** How long a worker's hold on a job lasts, how often stalled jobs are looked for, and the grace, in ms. */
export const BULLMQ_DEFAULTS = { lockMs: 30_000, stalledCheckMs: 30_000, graceMs: 60_000 } as const;

/** An executor on the BullMQ queue at `url`. */
export function createBullmqExecutor({
  url,
  connection: shared,
  onWorkerConnectionChange,
  prefix = "giftgenius:queue",
  concurrency,
  lockMs = BULLMQ_DEFAULTS.lockMs,
  stalledCheckMs = BULLMQ_DEFAULTS.stalledCheckMs,
  maxStalledCount = 1,
  graceMs = BULLMQ_DEFAULTS.graceMs,
}: BullmqExecutorOptions): CreateExecutor {
  return (context) => {
    const { store, limits, match, now, report, end, log } = context;
    const { readInput } = store;
    if (!readInput) throw new Error("BullMQ workers need a store several processes share (Redis).");
    const { redis, guard } = shared ?? watchConnection(openRedis(url));
    // neither waits for Redis nor asks its version at start-up: the guard waits, within its deadline
    const queue = new Queue<QueuedRun>(JOB_QUEUE, {
      connection: redis,
      prefix,
      skipVersionCheck: true,
      skipWaitingForReady: true,
    });
    /** Reports errors but those of a connection, which its watch tells once. */
    const reportFaults = (context: string) => {
      const told = report(context);
      return (error: unknown) => void (isConnectionFault(error) || told(error));
    };
    queue.on("error", reportFaults("the job queue"));
    const slices = createSliceGate();
    /** Jobs this process's worker runs, with the switch that stops them. */
    const live = new Map<string, { owner: Caller; controller: AbortController }>();

    async function work(queued: Job<QueuedRun>): Promise<void> {
      const jobId = queued.id!;
      const stored = await store.getJob(jobId);
      if (stored === undefined || isFinished(stored.status)) return; // canceled while waiting, or expired
      const { owner } = stored;
      if (stored.status === "running") {
        // handed on after its worker died: what it wrote stays, and the job ends here
        await end(jobId, owner, interrupted(CUT_OFF));
        return;
      }
      const input = await readInput.call(store, jobId);
      const plan = input && (await planStart(input, limits));
      if (!plan?.ok) {
        await end(jobId, owner, interrupted("The job's input could not be read back to run it."));
        return;
      }
      const controller = new AbortController();
      live.set(jobId, { owner, controller });
      const { paceMs, locale } = queued.data;
      const run = { ...plan.value, jobId, maxRows: limits.maxRows, match, paceMs, texts: jobTexts(locale ?? "en") };
      try {
        await runJob(context, slices, run, owner, controller.signal);
      } finally {
        live.delete(jobId);
        log.forget(jobId);
      }
    }

    const size = concurrency ?? limits.maxConcurrentJobs;
    const workerRedis = size > 0 ? openWorkerRedis(url) : undefined;
    if (workerRedis) watchConnection(workerRedis, onWorkerConnectionChange);
    const worker =
      workerRedis !== undefined
        ? new Worker<QueuedRun>(JOB_QUEUE, work, {
            connection: workerRedis,
            prefix,
            concurrency: size,
            lockDuration: lockMs,
            stalledInterval: stalledCheckMs,
            maxStalledCount,
          })
        : undefined;
    worker?.on("error", reportFaults("the job worker"));
    // past maxStalledCount BullMQ gives a job up as failed; the store must say so too
    worker?.on("failed", (queued) => {
      if (queued?.id !== undefined) void endUnowned(queued.id, CUT_OFF).catch(report(`ending job ${queued.id}`));
    });
    // a job ended by another process stops here at once, between two of its appends
    const unwatch = store.watch?.((jobId) => {
      const job = live.get(jobId);
      if (job === undefined) return;
      void store.getJob(jobId).then(
        (stored) => {
          if (stored === undefined || isFinished(stored.status)) job.controller.abort();
        },
        report(`reading job ${jobId}`),
      );
    });

    /** Ends the job unless it has ended already. */
    async function endUnowned(jobId: string, message: string) {
      const stored = await store.getJob(jobId);
      if (stored !== undefined && !isFinished(stored.status)) await end(jobId, stored.owner, interrupted(message));
    }

    /** Ends unfinished jobs the queue does not hold (lost between create and enqueue, or given up). */
    async function reconcile() {
      const unfinished = await store.listUnfinished();
      for (const job of unfinished) {
        if (now() - job.createdAt < graceMs) continue;
        const state = await guard(() => queue.getJobState(job.jobId));
        if (OWNED.has(state)) continue;
        await endUnowned(
          job.jobId,
          job.status === "running" ? CUT_OFF : "The job was lost before a worker could start it.",
        );
      }
    }
    const reconciler = setInterval(
      () => void reconcile().catch(report("ending jobs the queue lost")),
      Math.max(graceMs, 10_000),
    );
    reconciler.unref();

    let shut: Promise<void> | undefined;
    return {
      recover: () => reconcile().catch(report("ending jobs the queue lost")),
      async submit({ jobId, paceMs, locale }) {
        // once queued, the job is the workers' business: this process's cached fold would go stale
        log.forget(jobId);
        await guard(() =>
          queue.add("bulk", { paceMs, locale }, { jobId, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } }),
        );
      },
      stop(jobId) {
        live.get(jobId)?.controller.abort();
        // a waiting job need not wait for a worker to see it has ended (an active one is locked)
        void guard(() => queue.remove(jobId)).catch(() => {});
      },
      async close() {
        const ending = [...live.entries()];
        for (const [, job] of ending) job.controller.abort();
        clearInterval(reconciler);
        shut ??= (async () => {
          unwatch?.();
          // BullMQ's close waits for Redis however long it takes: without Redis it is forced (the
          // jobs here are stopped already, and ended below), and it is waited for a while at most
          if (worker) await within(worker.close(workerRedis?.status !== "ready"), CLOSE_WAIT_MS);
          await queue.close();
          // BullMQ leaves the connections it was given open
          await Promise.all([workerRedis, shared ? undefined : redis].filter((r) => r !== undefined).map(closeRedis));
        })();
        await shut;
        for (const [jobId, job] of ending) {
          live.delete(jobId);
          await end(jobId, job.owner, interrupted("The server shut down before this job finished."));
        }
      },
    };
  };
}

/** Waits for `promise` to settle, `ms` at most. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
