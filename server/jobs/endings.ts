/**
 * Job ends the store refused, written again every second until it takes them (the job reads as
 * ended meanwhile), and the executor's start-up recovery, tried again with them.
 */
import type { Caller } from "./caller.js";
import type { Failed } from "./executor.js";
import type { JobLog } from "./job-log.js";
import type { Timer, Timers } from "./timers.js";

const RETRY_MS = 1000;

/** A job's end not yet written, and since when (`at`). */
export type Unended = { owner: Caller; failed: Failed; at: number };

type EndingsOptions = {
  log: Pick<JobLog, "append">;
  wake: (jobId: string) => void;
  report: (context: string) => (error: unknown) => void;
  now: () => number;
  timers: Timers;
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
      if (first) this.options.report(`ending job ${jobId}; it is retried until the store takes it`)(error);
      this.#unended.set(jobId, { owner, failed, at: this.#unended.get(jobId)?.at ?? this.options.now() });
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

  /** Runs the executor's recovery until it succeeds. */
  async recover(): Promise<void> {
    if (this.#recovered) return;
    try {
      await this.options.recover();
      this.#recovered = true;
    } catch (error) {
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

  #retrySoon(): void {
    if (this.#retry !== undefined || this.#stopped) return;
    this.#retry = this.options.timers.setTimeout(() => {
      this.#retry = undefined;
      void this.recover().then(() => this.writeAgain());
    }, RETRY_MS);
    this.#retry.unref();
  }
}
