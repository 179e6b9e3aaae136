/**
 * Job ends the store refused to write, written again every second until it takes them, and the
 * executor's start-up recovery, tried again with them until the store can list the jobs. A job
 * whose end is not written yet reads as ended meanwhile (reads.ts), and a cancel leaves it be.
 */
import type { Caller } from "./caller.js";
import type { Failed } from "./executor.js";
import type { JobLog } from "./job-log.js";
import type { Timer, Timers } from "./timers.js";

/** How long after a failed write of a job's end it is written again, in ms. */
const RETRY_MS = 1000;

/** A job's end not yet written, and since when (`at`). */
export type Unended = { owner: Caller; failed: Failed; at: number };

type EndingsOptions = {
  log: Pick<JobLog, "append">;
  /** Wakes the long polls on the job: its readers see it ended at once. */
  wake: (jobId: string) => void;
  report: (context: string) => (error: unknown) => void;
  now: () => number;
  timers: Timers;
  /** The executor's start-up recovery; rejects when the store could not list the jobs. */
  recover: () => Promise<void>;
};

export class Endings {
  readonly #unended = new Map<string, Unended>();
  #retry: Timer | undefined;
  #recovered = false;
  #recoveryFailures = 0;
  #stopped = false;

  constructor(private readonly options: EndingsOptions) {}

  /** Ends a job as failed; when the store refuses, the job is kept to be ended again later. */
  readonly end = async (jobId: string, owner: Caller, failed: Failed): Promise<void> => {
    try {
      await this.options.log.append(jobId, owner, [failed]);
      this.#unended.delete(jobId);
    } catch (error) {
      const first = !this.#unended.has(jobId);
      // told once per job, not at every retry
      if (first) this.options.report(`ending job ${jobId}; it is retried until the store takes it`)(error);
      this.#unended.set(jobId, { owner, failed, at: this.#unended.get(jobId)?.at ?? this.options.now() });
      // its readers see it ended from now on (reads.ts); those waiting are told at once
      if (first) this.options.wake(jobId);
      this.#retrySoon();
    }
  };

  readonly unended = (jobId: string): Unended | undefined => this.#unended.get(jobId);

  /** Forgets the job's unwritten end: it was canceled or deleted meanwhile. */
  forget(jobId: string): void {
    this.#unended.delete(jobId);
  }

  async writeAgain(): Promise<void> {
    for (const [jobId, { owner, failed }] of [...this.#unended]) await this.end(jobId, owner, failed);
  }

  /** Runs the executor's recovery unless it has succeeded; a failure is tried again soon. */
  async recover(): Promise<void> {
    if (this.#recovered) return;
    try {
      await this.options.recover();
      this.#recovered = true;
    } catch (error) {
      // told once, not at every retry
      if (this.#recoveryFailures++ === 0)
        this.options.report("listing the jobs an earlier process left unfinished")(error);
      this.#retrySoon();
    }
  }

  /** No retries from now on: the service is closing, and writes the ends one last time itself. */
  stop(): void {
    this.#stopped = true;
    this.options.timers.clear(this.#retry);
  }

  /** Writes the ends that failed again soon: a store that was down for a moment takes them then. */
  #retrySoon(): void {
    if (this.#retry !== undefined || this.#stopped) return;
    this.#retry = this.options.timers.setTimeout(() => {
      this.#retry = undefined;
      void (async () => {
        await this.recover();
        await this.writeAgain();
      })();
    }, RETRY_MS);
    this.#retry.unref();
  }
}
