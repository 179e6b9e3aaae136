/**
 * Turns for the running jobs' slices of work: at most one slice per turn of the event loop, handed
 * out round-robin. Were every job to take its own turn after each slice, one turn would last as
 * many slices as there are jobs, and the server would accept a new connection only once per turn.
 */

/** The one gate all running jobs of a service share. */
export type SliceGate = {
  /**
   * Resolves on a later turn of the event loop when it is the caller's turn to run one slice
   * (a few milliseconds of synchronous work). Rejects with `signal.reason` if aborted first.
   */
  next(signal?: AbortSignal): Promise<void>;
  /** Slices waiting for their turn. */
  waiting(): number;
};

type Waiter = { go: () => void };

/** A gate that grants one waiting slice per `setImmediate`, first come first served. */
export function createSliceGate(): SliceGate {
  const queue = new Set<Waiter>(); // a Set keeps insertion order and removes in O(1)
  let scheduled = false;

  // one grant per check phase: the slice runs in the microtasks right after this callback, and the
  // next grant is scheduled from here, so it lands on the next turn, after that turn's I/O
  function grant(): void {
    scheduled = false;
    const first = queue.values().next();
    if (first.done) return;
    queue.delete(first.value);
    if (queue.size > 0) schedule();
    first.value.go();
  }
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(grant);
  }

  return {
    next(signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          queue.delete(waiter);
          reject(signal?.reason);
        };
        const waiter: Waiter = {
          go: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.add(waiter);
        schedule();
      });
    },
    waiting: () => queue.size,
  };
}
