/**
 * Turns for the running jobs' slices of work: at most one slice per turn of the event loop, handed out round-robin,
 * so that the server accepts connections between any two slices. A job's ETA is that of processor sharing: it ends
 * once it has had its own work left, and every other job as much of theirs (up to that much), at the pace slices
 * have had since it began.
 */

export type Share = {
  /** Waits for the job's next turn, after `before` if given (not slice time). */
  next(signal?: AbortSignal, before?: () => Promise<void>): Promise<void>;
  busy(): number;
  /** Notes that the job needs `leftMs` more of slices; the wall-clock ms until it ends, the others' work counted. */
  eta(leftMs: number): number;
  leave(): void;
};

/** The turns all running jobs of a service share: one slice per `setImmediate`, first come first served. */
export class SliceTurns {
  /** A Set keeps insertion order and removes in O(1). */
  readonly #queue = new Set<() => void>();
  #scheduled = false;
  #served = 0;
  /** The slice milliseconds each running job said it still needs. */
  readonly #left = new Map<Share, number>();

  join(): Share {
    const startedAt = performance.now();
    const servedBefore = this.#served;
    let busy = 0;
    let sliceAt: number | undefined; // when the job's current slice began
    const inSlice = () => (sliceAt === undefined ? 0 : performance.now() - sliceAt);
    const share: Share = {
      next: async (signal, before) => {
        const ms = inSlice();
        busy += ms;
        this.#served += ms;
        sliceAt = undefined;
        await before?.();
        await this.next(signal);
        sliceAt = performance.now();
      },
      busy: () => busy + inSlice(),
      eta: (leftMs) => {
        this.#left.set(share, leftMs);
        let work = 0;
        for (const left of this.#left.values()) work += Math.min(left, leftMs);
        const served = this.#served - servedBefore + inSlice();
        return served > 0 ? (work * (performance.now() - startedAt)) / served : work;
      },
      leave: () => void this.#left.delete(share),
    };
    return share;
  }

  /** Resolves on a later turn when it is the caller's turn to run one slice; rejects with `signal.reason`. */
  readonly next = (signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.#queue.delete(go);
        reject(signal?.reason);
      };
      const go = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.add(go);
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
    first.value();
  };

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#grant);
  }
}
