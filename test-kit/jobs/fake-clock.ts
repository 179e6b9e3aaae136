/**
 * A clock and timers that move only when a test says so: `advance(ms)` runs, in time order, every
 * timer due by then, so a test of something that decides by time never sleeps.
 */
import type { Timer, Timers } from "../../server/jobs/timers.js";

type Pending = Timer & { at: number; every?: number; run: () => void };

export class FakeClock implements Timers {
  #now: number;
  readonly #pending = new Set<Pending>();

  constructor(start = 0) {
    this.#now = start;
  }

  readonly now = (): number => this.#now;

  readonly setTimeout = (run: () => void, ms: number): Timer => this.#add(run, ms);

  readonly setInterval = (run: () => void, ms: number): Timer => this.#add(run, ms, Math.max(1, ms));

  readonly clear = (timer: Timer | undefined): void => {
    this.#pending.delete(timer as Pending);
  };

  /** Timers waiting to run. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Moves the clock `ms` on, running each timer due on the way at its time, then the promises it settled. */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms;
    for (;;) {
      const due = [...this.#pending].filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.#now = Math.max(this.#now, due.at);
      if (due.every === undefined) this.#pending.delete(due);
      else due.at += due.every;
      due.run();
      await flush();
    }
    this.#now = until;
    await flush();
  }

  #add(run: () => void, ms: number, every?: number): Timer {
    const timer: Pending = { at: this.#now + Math.max(0, ms), every, run, unref: () => timer };
    this.#pending.add(timer);
    return timer;
  }
}

/** Lets what the timer set going run: its promise callbacks, and I/O callbacks of this turn. */
async function flush(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}
