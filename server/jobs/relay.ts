/**
 * Who hears of appended events. Every event of the jobs followed here reaches this instance's
 * listeners once and in order, whichever process appended it: this process's pass straight
 * through; another's (a BullMQ worker's) are read back from the store when it says so.
 */
import { isTerminalEvent } from "../../shared/job-events.js";
import { applyJobEvent, type JobFold } from "../../shared/job-reducer.js";
import { isFinished } from "../../shared/job-view.js";
import type { Caller } from "./caller.js";
import type { JobEventNotice } from "./job-log.js";
import type { JobStore } from "./store.js";

/** How long a job is still known after its terminal event. */
const FORGET_MS = 30_000;

type Listener = (notice: JobEventNotice) => void;
type Followed = { owner: Caller; fold: JobFold; reading: boolean; again: boolean };

/** This process's listeners, and the jobs whose events other processes append that they follow. */
export class EventRelay {
  readonly #followed = new Map<string, Followed>();
  readonly #everywhere = new Set<Listener>();
  readonly #here = new Set<Listener>();

  constructor(
    private readonly store: JobStore,
    private readonly report: (context: string) => (error: unknown) => void,
  ) {}

  /** Subscribes to every appended event, by any process or (`appendedHere`) this one only. */
  add(listener: Listener, { appendedHere }: { appendedHere: boolean }): () => void {
    const to = appendedHere ? this.#here : this.#everywhere;
    to.add(listener);
    return () => void to.delete(listener);
  }

  /** Whether anyone listens to other processes' events. */
  wantsRelayed(): boolean {
    return this.#everywhere.size > 0;
  }

  /** Publishes an event this process appended, unless it was already published. */
  offer(notice: JobEventNotice): void {
    this.#pass(notice);
    this.#tell(this.#here, notice);
  }

  /** Follows a job from `fold` (just after its creation here, or as read from the store), unless followed already. */
  follow(owner: Caller, fold: JobFold): void {
    if (!this.#followed.has(fold.jobId)) this.#followed.set(fold.jobId, { owner, fold, reading: false, again: false });
  }

  /** Another process may have appended to `jobId`: publishes what this one has not (again if woken meanwhile). */
  wake(jobId: string): void {
    const job = this.#followed.get(jobId);
    if (job === undefined) return;
    job.again = true;
    if (job.reading) return;
    job.reading = true;
    void (async () => {
      while (job.again && !isFinished(job.fold.status)) {
        job.again = false;
        const events = await this.store.readEvents(jobId, job.fold.lastSeq, 1000);
        for (const event of events) {
          if (event.seq === job.fold.lastSeq + 1)
            this.#pass({ event, owner: job.owner, fold: applyJobEvent(job.fold, event) });
        }
        if (events.length === 1000) job.again = true;
      }
    })()
      .catch(this.report("reading back events another process appended"))
      .finally(() => {
        job.reading = false;
        // a wake that came after the loop's last check and before this point would be lost
        if (job.again && !isFinished(job.fold.status)) this.wake(jobId);
      });
  }

  #pass(notice: JobEventNotice): void {
    const { jobId, seq } = notice.event;
    const job = this.#followed.get(jobId);
    if (job !== undefined) {
      if (seq <= job.fold.lastSeq) return; // read back from the store already
      if (seq > job.fold.lastSeq + 1) return this.wake(jobId); // keeps the order
      job.fold = notice.fold;
      // kept a little longer, so that this process's own copy of the event, if late, is dropped
      if (isTerminalEvent(notice.event)) setTimeout(() => this.#followed.delete(jobId), FORGET_MS).unref();
    }
    this.#tell(this.#everywhere, notice);
  }

  #tell(to: Set<Listener>, notice: JobEventNotice): void {
    for (const listener of [...to]) {
      try {
        listener(notice);
      } catch (error) {
        this.report(`a listener of job ${notice.event.jobId}`)(error);
      }
    }
  }
}
