/**
 * Per-job wake-ups for long polls: a waiter is armed before the store is read, so an event appended
 * in between still wakes it, and it ends on the first append, its timeout or its abort signal.
 * Nothing polls; every way out removes the waiter and its timer.
 */

type WakeReason = "event" | "timeout" | "aborted" | "closed";
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

/** An empty set of waiters. */
export function createWaiters(): Waiters {
  const byJob = new Map<string, Set<(reason: WakeReason) => void>>();
  let closed = false;

  function arm(jobId: string, ms: number, signal?: AbortSignal): Waiter {
    let resolve!: (reason: WakeReason) => void;
    const settled = new Promise<WakeReason>((r) => (resolve = r));
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (reason: WakeReason) => {
      if (done) return;
      done = true;
      const set = byJob.get(jobId);
      set?.delete(finish);
      if (set?.size === 0) byJob.delete(jobId);
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(reason);
    };
    const onAbort = () => finish("aborted");
    if (closed) finish("closed");
    else if (signal?.aborted) finish("aborted");
    else {
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
    size: () => [...byJob.values()].reduce((n, s) => n + s.size, 0),
  };
}
