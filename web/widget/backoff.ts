/**
 * Retry timing for the follow loop: exponential backoff with jitter, capped, and a sleep that
 * an AbortSignal cuts short (so an unmounted widget never waits out a long delay).
 */

export type BackoffOptions = { baseMs: number; maxMs: number };
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 10_000 };

/**
 * The delay before retry `attempt` (0 first): base·2^attempt capped at max, jittered into its upper
 * half so that widgets failing together do not retry in step.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}
