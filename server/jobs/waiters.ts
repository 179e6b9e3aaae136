/**
 * Per-job wake-ups for long polls: a waiter is armed before the store is read, so an event appended
 * in between still wakes it. Every way out removes the waiter and its timer. At most `max` wait at once.
 */
import type { Timer, Timers } from "./timers.js";

/**
 * "full": too many were waiting, so this one did not wait. The poll then answers at once with what
 * there is, not an error: waitMs is a most, clients poll again, and the process stays bounded.
 */
type WakeReason = "event" | "timeout" | "aborted" | "closed" | "full";
type Waiter = { settled: Promise<WakeReason>; dispose(): void };
type Finish = (reason: WakeReason) => void;

type WaitersOptions = { max?: number; timers: Timers };

export class Waiters {
  readonly #byJob = new Map<string, Set<Finish>>();
  #closed = false;
  #waiting = 0;

  constructor(private readonly options: WaitersOptions) {}

  /** Arms a waiter on `jobId` that lasts at most `ms`. Call `dispose` when no longer waiting. */
  arm(jobId: string, ms: number, signal?: AbortSignal): Waiter {
    const { max = Infinity, timers } = this.options;
    let resolve!: (reason: WakeReason) => void;
    const settled = new Promise<WakeReason>((r) => (resolve = r));
    let timer: Timer | undefined;
    let done = false;
    const finish: Finish = (reason) => {
      if (done) return;
      done = true;
      const set = this.#byJob.get(jobId);
      if (set?.delete(finish)) this.#waiting--;
      if (set?.size === 0) this.#byJob.delete(jobId);
      timers.clear(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(reason);
    };
    const onAbort = () => finish("aborted");
    if (this.#closed) finish("closed");
    else if (signal?.aborted) finish("aborted");
    else if (this.#waiting >= max) finish("full");
    else {
      this.#waiting++;
      this.#byJob.set(jobId, (this.#byJob.get(jobId) ?? new Set()).add(finish));
      timer = timers.setTimeout(() => finish("timeout"), Math.max(0, ms));
      signal?.addEventListener("abort", onAbort, { once: true });
    }
    return { settled, dispose: () => finish("timeout") };
  }

  wake(jobId: string): void {
    for (const finish of [...(this.#byJob.get(jobId) ?? [])]) finish("event");
  }

  /** Wakes every waiter with "closed"; arming afterwards settles at once. */
  close(): void {
    this.#closed = true;
    for (const set of [...this.#byJob.values()]) for (const finish of [...set]) finish("closed");
  }
}
