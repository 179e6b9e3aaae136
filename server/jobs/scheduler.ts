/**
 * Runs at most `maxConcurrent` jobs at once; the rest wait in arrival order. A run starts on a
 * later turn of the event loop, never inside `enqueue`, so the caller can answer first.
 */

export type Scheduler = {
  /** Queues `run`; it starts as soon as a slot is free. */
  enqueue(jobId: string, run: () => Promise<void>): void;
  /** Takes a job out of the queue; false when it was not waiting (running or unknown). */
  remove(jobId: string): boolean;
  /** Empties the queue (returning the ids that were waiting) and waits for the running jobs to end. */
  close(): Promise<string[]>;
};

/** A FIFO queue that runs at most `maxConcurrent` jobs (at least one) at a time. */
export function createScheduler(maxConcurrent: number): Scheduler {
  const queue = new Map<string, () => Promise<void>>(); // a Map keeps insertion order: FIFO
  const active = new Set<Promise<void>>();
  let reserved = 0; // slots taken by runs that start on the next turn
  let closed = false;

  function pump(): void {
    while (!closed && reserved + active.size < Math.max(1, maxConcurrent) && queue.size > 0) {
      const [jobId, run] = queue.entries().next().value as [string, () => Promise<void>];
      queue.delete(jobId);
      reserved++;
      setImmediate(() => {
        reserved--;
        // a run reports its own failures; this catch only keeps a bug from stopping the queue
        const p: Promise<void> = run()
          .catch(() => {})
          .finally(() => {
            active.delete(p);
            pump();
          });
        active.add(p);
      });
    }
  }

  return {
    enqueue(jobId, run) {
      if (closed) return;
      queue.set(jobId, run);
      pump();
    },
    remove: (jobId) => queue.delete(jobId),
    async close() {
      closed = true;
      const dropped = [...queue.keys()];
      queue.clear();
      // let runs reserved on this turn start, so that they too are awaited
      await new Promise((r) => setImmediate(r));
      await Promise.all([...active]);
      return dropped;
    },
  };
}
