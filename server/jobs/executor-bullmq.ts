/**
 * Job work in BullMQ workers, for a store several processes share (Redis): a job is queued under
 * its own id and a worker in any process runs it. BullMQ's locks find a worker that died mid-job;
 * the next worker ends that job as interrupted. The queue sends on the store's command connection,
 * with its deadlines; the worker waits for Redis as long as it takes.
 */
import { Queue, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { setTimeout as wait } from "node:timers/promises";
import { isFinished } from "../../shared/job-view.js";
import {
  interrupted,
  LiveJobs,
  type CreateExecutor,
  type ExecutorContext,
  type JobExecutor,
  type JobToRun,
  type RunOptions,
} from "./executor.js";
import { traceEnqueue, traceQueuedRun, type TraceCarrier } from "../observability/tracing.js";
import {
  closeRedis,
  isConnectionFault,
  openRedis,
  openWorkerRedis,
  watchConnection,
  type ConnectionListener,
  type RedisConnection,
} from "../redis/connection.js";
import type { Locale } from "./runner/texts.js";
import { readInputLimits } from "../limits.js";
import { planStart } from "./start-plan.js";

export type BullmqExecutorOptions = {
  /** The Redis that holds the queue (the store's). */
  url: string;
  /** The store's command connection, for the queue to share, so that /healthz speaks for the queue too. */
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
  /** How old an unfinished job the queue does not hold must be before it is ended (it may be about to be queued), in ms. */
  graceMs?: number;
};

/** What a queued job carries besides the stored input, and the W3C trace context it was queued in. */
type QueuedRun = { runOptions?: RunOptions; locale?: Locale; trace?: TraceCarrier };

export const JOB_QUEUE = "jobs";
/** States in which the queue still owns a job: some worker runs it or will. */
const OWNED = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);
const CUT_OFF = "The worker running this job stopped before finishing.";
const CLOSE_WAIT_MS = 5_000;

export const BULLMQ_DEFAULTS = { lockMs: 30_000, stalledCheckMs: 30_000, graceMs: 60_000 } as const;

export function createBullmqExecutor(options: BullmqExecutorOptions): CreateExecutor {
  return (context) => new BullmqExecutor(options, context);
}

/** A worker with its connection, which BullMQ leaves open. */
type JobWorker = { worker: Worker<QueuedRun>; redis: Redis };

class BullmqExecutor implements JobExecutor {
  readonly #context: ExecutorContext;
  readonly #graceMs: number;
  readonly #connection: RedisConnection;
  readonly #queue: Queue<QueuedRun>;
  /** The queue's connection when this executor opened it: closed with the queue. */
  readonly #ownRedis: Redis | undefined;
  readonly #worker: JobWorker | undefined;
  readonly #live: LiveJobs;
  readonly #unwatch: (() => void) | undefined;
  readonly #reconciler: ReturnType<typeof setInterval>;
  #shut: Promise<void> | undefined;

  constructor(settings: BullmqExecutorOptions, context: ExecutorContext) {
    const { prefix = "giftgenius:queue", graceMs = BULLMQ_DEFAULTS.graceMs } = settings;
    this.#context = context;
    this.#live = new LiveJobs(context);
    this.#graceMs = graceMs;
    this.#connection = settings.connection ?? watchConnection(openRedis(settings.url));
    this.#ownRedis = settings.connection ? undefined : this.#connection.redis;
    this.#queue = openQueue(this.#connection.redis, prefix, this.#reportFaults("the job queue"));
    this.#worker = this.#openWorker(settings, prefix);
    // a job ended by another process stops here at once, between two of its appends
    this.#unwatch = context.store.watch?.(this.#onStoreChange);
    this.#reconciler = setInterval(() => void this.recover(), Math.max(graceMs, 10_000));
    this.#reconciler.unref();
  }

  recover(): Promise<void> {
    return this.#reconcile().catch(this.#context.report("ending jobs the queue lost"));
  }

  async submit({ jobId, runOptions, locale }: JobToRun): Promise<void> {
    // once queued, the job is the workers' business: this process's cached fold would go stale
    this.#context.log.forget(jobId);
    const options = { jobId, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } };
    await traceEnqueue(jobId, (trace) =>
      this.#connection.guard(() => this.#queue.add("bulk", { runOptions, locale, trace }, options)),
    );
  }

  stop(jobId: string): void {
    this.#live.abort(jobId);
    // a waiting job need not wait for a worker to see it has ended (an active one is locked)
    void this.#connection.guard(() => this.#queue.remove(jobId)).catch(() => {});
  }

  async close(): Promise<void> {
    clearInterval(this.#reconciler);
    await this.#live.close(() => (this.#shut ??= this.#shutDown()));
  }

  /** Reports errors but a connection's, which its watch tells. */
  #reportFaults(context: string): (error: unknown) => void {
    const told = this.#context.report(context);
    return (error: unknown) => void (isConnectionFault(error) || told(error));
  }

  /** The worker, on a connection of its own; none for a concurrency of 0. */
  #openWorker(settings: BullmqExecutorOptions, prefix: string): JobWorker | undefined {
    const size = settings.concurrency ?? this.#context.limits.maxConcurrentJobs;
    if (size <= 0) return undefined;
    const redis = openWorkerRedis(settings.url);
    watchConnection(redis, settings.onWorkerConnectionChange);
    const worker = new Worker<QueuedRun>(JOB_QUEUE, this.#work, {
      connection: redis,
      prefix,
      concurrency: size,
      lockDuration: settings.lockMs ?? BULLMQ_DEFAULTS.lockMs,
      stalledInterval: settings.stalledCheckMs ?? BULLMQ_DEFAULTS.stalledCheckMs,
      maxStalledCount: settings.maxStalledCount ?? 1,
    });
    worker.on("error", this.#reportFaults("the job worker"));
    // past maxStalledCount BullMQ gives a job up as failed; the store must say so too
    worker.on("failed", (queued) => {
      if (queued?.id === undefined) return;
      void this.#endUnowned(queued.id, CUT_OFF).catch(this.#context.report(`ending job ${queued.id}`));
    });
    return { worker, redis };
  }

  /** Runs a job a worker took, unless it has ended or cannot run any more. */
  readonly #work = async (queued: Job<QueuedRun>): Promise<void> => {
    const { store, limits, end } = this.#context;
    const jobId = queued.id!;
    const stored = await store.getJob(jobId);
    if (stored === undefined || isFinished(stored.status)) return; // canceled while waiting, or expired
    const { owner } = stored;
    // handed on after its worker died: what it wrote stays, and the job ends here
    if (stored.status === "running") return end(jobId, owner, interrupted(CUT_OFF));
    const input = await store.readInput(jobId);
    // a stored input passed its bound when the job was made, the reader's larger one where it read a file
    const plan = input && (await planStart(input, readInputLimits(limits)));
    if (!plan?.ok) return end(jobId, owner, interrupted("The job's input could not be read back to run it."));
    const { trace, runOptions, locale } = queued.data;
    await traceQueuedRun({ carrier: trace, jobId, queuedAt: queued.timestamp }, () =>
      this.#live
        .run({ jobId, owner, plan: plan.value, runOptions, locale })
        .finally(() => this.#context.log.forget(jobId)),
    );
  };

  /** Stops a job running here once the store says it has ended (or is gone). */
  readonly #onStoreChange = (jobId: string): void => {
    if (!this.#live.has(jobId)) return;
    void this.#context.store.getJob(jobId).then(
      (stored) => {
        if (stored === undefined || isFinished(stored.status)) this.#live.abort(jobId);
      },
      this.#context.report(`reading job ${jobId}`),
    );
  };

  async #endUnowned(jobId: string, message: string): Promise<void> {
    const stored = await this.#context.store.getJob(jobId);
    if (stored !== undefined && !isFinished(stored.status))
      await this.#context.end(jobId, stored.owner, interrupted(message));
  }

  /** Ends unfinished jobs the queue does not hold (lost between create and enqueue, or given up). */
  async #reconcile(): Promise<void> {
    for (const job of await this.#context.store.listUnfinished()) {
      if (this.#context.now() - job.createdAt < this.#graceMs) continue;
      const state = await this.#connection.guard(() => this.#queue.getJobState(job.jobId));
      if (OWNED.has(state)) continue;
      await this.#endUnowned(
        job.jobId,
        job.status === "running" ? CUT_OFF : "The job was lost before a worker could start it.",
      );
    }
  }

  async #shutDown(): Promise<void> {
    this.#unwatch?.();
    const worker = this.#worker;
    // BullMQ's close waits for Redis however long it takes: without Redis it is forced (the jobs
    // here are stopped already, and ended by `close`), and it is waited for a while at most
    const closed = worker?.worker.close(worker.redis.status !== "ready").catch(() => {});
    if (closed) await Promise.race([closed, wait(CLOSE_WAIT_MS, undefined, { ref: false })]);
    await this.#queue.close();
    // BullMQ leaves the connections it was given open
    await Promise.all([worker?.redis, this.#ownRedis].filter((r) => r !== undefined).map(closeRedis));
  }
}

/** The queue jobs are submitted to, and whose depth the metrics read. */
export function openQueue(redis: Redis, prefix: string, onError: (error: unknown) => void): Queue<QueuedRun> {
  // neither waits for Redis nor asks its version at start-up: the guard waits, within its deadline
  const queue = new Queue<QueuedRun>(JOB_QUEUE, {
    connection: redis,
    prefix,
    skipVersionCheck: true,
    skipWaitingForReady: true,
  });
  queue.on("error", onError);
  return queue;
}
