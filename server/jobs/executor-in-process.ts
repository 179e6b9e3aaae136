/** The executor of the SQLite store, on disk or in memory: jobs run in this process, one slice per event-loop turn. */
import { interrupted, LiveJobs, type CreateExecutor } from "./executor.js";

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
    while (!closed && active.size < Math.max(1, maxConcurrent) && queue.size > 0) {
      const [jobId, run] = queue.entries().next().value as [string, () => Promise<void>];
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
