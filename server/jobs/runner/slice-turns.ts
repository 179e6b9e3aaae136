/**
 * Turns for the running jobs' slices of work: at most one slice per turn of the event loop, handed
 * out round-robin. Were every job to take its own turn after each slice, one turn would last as
 * many slices as there are jobs, and the server would accept a new connection only once per turn.
 */

type Waiter = { go: () => void };

/** The turns all running jobs of a service share: one waiting slice per `setImmediate`, first come first served. */
export class SliceTurns {
  /** Slices waiting for their turn; a Set keeps insertion order and removes in O(1). */
  readonly #queue = new Set<Waiter>();
  /** Whether a grant is already scheduled for the next check phase. */
  #scheduled = false;

  /**
   * Resolves on a later turn of the event loop when it is the caller's turn to run one slice
   * (a few milliseconds of synchronous work). Rejects with `signal.reason` if aborted first.
   */
  readonly next = (signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.#queue.delete(waiter);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        go: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.add(waiter);
      this.#schedule();
    });

  // one grant per check phase: the slice runs in the microtasks right after this callback, and the
  // next grant is scheduled from here, so it lands on the next turn, after that turn's I/O
  readonly #grant = (): void => {
    this.#scheduled = false;
    const first = this.#queue.values().next();
    if (first.done) return;
    this.#queue.delete(first.value);
    if (this.#queue.size > 0) this.#schedule();
    first.value.go();
  };

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#grant);
  }
}
