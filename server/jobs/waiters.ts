/**
 * Per-job wake-ups for long polls: a waiter is armed before the store is read, so an event appended
 * in between still wakes it, and it ends on the first append, its timeout or its abort signal.
 * Nothing polls; every way out removes the waiter and its timer. At most `max` wait at once.
 */

/**
 * "full": the most waiters allowed were already waiting, so this one did not wait at all. The
 * long poll then answers at once with what there is, not with an error: a long poll may always
 * end early with no events (waitMs is a most, not a promise), every client already polls again,
 * the widget after a pause, so nothing breaks, and the process keeps its sockets, timers and
 * memory bounded whatever the number of watchers.
 */
type WakeReason = "event" | "timeout" | "aborted" | "closed" | "full";
type Waiter = { settled: Promise<WakeReason>; dispose(): void };
export type Waiters = {
  /** Arms a waiter on `jobId` that lasts at most `ms`. Call `dispose` when no longer waiting. */
  arm(jobId: string, ms: number, signal?: AbortSignal): Waiter;
  /** Wakes every waiter on `jobId`. */
  wake(jobId: string): void;
  /** Wakes every waiter with "closed"; arming afterwards settles at once. */
  close(): void;
  /** Waiters currently armed (for tests and health checks). */
  size(): number;
};

/** An empty set of waiters, of which at most `max` may wait at once. */
export function createWaiters(max = Infinity): Waiters {
  const byJob = new Map<string, Set<(reason: WakeReason) => void>>();
  let closed = false;
  let waiting = 0;

  function arm(jobId: string, ms: number, signal?: AbortSignal): Waiter {
    let resolve!: (reason: WakeReason) => void;
    const settled = new Promise<WakeReason>((r) => (resolve = r));
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (reason: WakeReason) => {
      if (done) return;
      done = true;
      const set = byJob.get(jobId);
      if (set?.delete(finish)) waiting--;
      if (set?.size === 0) byJob.delete(jobId);
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(reason);
    };
    const onAbort = () => finish("aborted");
    if (closed) finish("closed");
    else if (signal?.aborted) finish("aborted");
    else if (waiting >= max) finish("full");
    else {
      waiting++;
      const set = byJob.get(jobId) ?? new Set();
      set.add(finish);
      byJob.set(jobId, set);
      timer = setTimeout(() => finish("timeout"), Math.max(0, ms));
      signal?.addEventListener("abort", onAbort, { once: true });
    }
    return { settled, dispose: () => finish("timeout") };
  }

  return {
    arm,
    wake(jobId) {
      for (const f of [...(byJob.get(jobId) ?? [])]) f("event");
    },
    close() {
      closed = true;
      for (const set of [...byJob.values()]) for (const f of [...set]) f("closed");
    },
    size: () => waiting,
  };
}
