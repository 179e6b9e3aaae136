/**
 * The jobs running in this process, each with the switch that stops it: what an executor aborts on
 * a cancel, and aborts and ends as interrupted when it closes.
 */
import type { Caller } from "./caller.js";
import { interrupted, type ExecutorContext } from "./executor.js";

type LiveJob = { owner: Caller; controller: AbortController };
/** Jobs stopped by a close, to be ended once their runs have let go. */
type Stopped = [jobId: string, job: LiveJob][];

export class LiveJobs {
  readonly #jobs = new Map<string, LiveJob>();

  /** Takes the job in; its run stops when the returned signal aborts. */
  add(jobId: string, owner: Caller): AbortSignal {
    const controller = new AbortController();
    this.#jobs.set(jobId, { owner, controller });
    return controller.signal;
  }

  has(jobId: string): boolean {
    return this.#jobs.has(jobId);
  }

  /** Stops the job's run, if it runs here. */
  abort(jobId: string): void {
    this.#jobs.get(jobId)?.controller.abort();
  }

  /** Forgets the job: its run has ended, or it was stopped. */
  delete(jobId: string): void {
    this.#jobs.delete(jobId);
  }

  /** Stops every job here; hand the answer to `endStopped` once their runs have let go. */
  abortAll(): Stopped {
    const stopped = [...this.#jobs.entries()];
    for (const [, job] of stopped) job.controller.abort();
    return stopped;
  }

  /** Forgets the stopped jobs and ends each as cut off by the shutdown. */
  async endStopped(stopped: Stopped, end: ExecutorContext["end"]): Promise<void> {
    for (const [jobId, job] of stopped) {
      this.#jobs.delete(jobId);
      await end(jobId, job.owner, interrupted("The server shut down before this job finished."));
    }
  }
}
