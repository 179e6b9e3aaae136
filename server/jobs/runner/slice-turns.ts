/**
 * Turns for the running jobs' slices of work: at most one slice per turn of the event loop, handed
 * out round-robin. Were every job to take its own turn after each slice, one turn would last as
 * many slices as there are jobs, and the server would accept a new connection only once per turn.
 *
 * Jobs share the CPU this way, so a job's end depends on the others: each job's share (`join`)
 * times its slices and knows the work the others still have, and its ETA is that of processor
 * sharing. Each running job gets an equal part of the time the process gives to slices; the job
 * ends once it has had its own work left, and every other job as much of theirs, up to that much
 * (a job that ends first frees its part). That time goes at the pace slices have had since the
 * job began, whoever ran them, which holds when another job starts or ends.
 */

type Waiter = { go: () => void };

/** One job's place in the turns. */
export type Share = {
  /**
   * Waits for the job's next turn, as `next`, after `before` if given (a pause, not slice time):
   * the time since its last turn began was its slice.
   */
  next(signal?: AbortSignal, before?: () => Promise<void>): Promise<void>;
  /** Milliseconds the job has spent in its slices. */
  busy(): number;
  /** Notes that the job needs `leftMs` more of slices; the wall-clock ms until it ends, the others' work counted. */
  eta(leftMs: number): number;
  /** The job has ended: its work no longer counts in the others' ETAs. */
  leave(): void;
};

/** The turns all running jobs of a service share: one waiting slice per `setImmediate`, first come first served. */
export class SliceTurns {
  /** Slices waiting for their turn; a Set keeps insertion order and removes in O(1). */
  readonly #queue = new Set<Waiter>();
  /** Whether a grant is already scheduled for the next check phase. */
  #scheduled = false;
  /** Milliseconds of every job's finished slices. */
  #served = 0;
  /** The slice milliseconds each running job said it still needs. */
  readonly #left = new Map<Share, number>();

  /** A share of the turns for a job that begins now. */
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
