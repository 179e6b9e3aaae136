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

export type Relay = {
  /** Publishes an event this process appended, unless it was already published. */
  offer(notice: JobEventNotice): void;
  /** Follows a job from `fold` (just after its creation here, or as read from the store), unless followed already. */
  follow(owner: Caller, fold: JobFold): void;
  /** Another process may have appended to `jobId`: publishes what this one has not. */
  wake(jobId: string): void;
};

export function createRelay(
  store: JobStore,
  publish: (notice: JobEventNotice) => void,
  report: (error: unknown) => void,
): Relay {
  const followed = new Map<string, { owner: Caller; fold: JobFold; reading: boolean; again: boolean }>();

  function pass(notice: JobEventNotice): void {
    const job = followed.get(notice.event.jobId);
    if (job !== undefined) {
      if (notice.event.seq <= job.fold.lastSeq) return; // read back from the store already
      if (notice.event.seq > job.fold.lastSeq + 1) return readBack(notice.event.jobId); // keeps the order
      job.fold = notice.fold;
      // kept a little longer, so that this process's own copy of the event, if late, is dropped
      if (isTerminalEvent(notice.event)) setTimeout(() => followed.delete(notice.event.jobId), FORGET_MS).unref();
    }
    publish(notice);
  }

  /** Reads and publishes the job's events after the last published, again if woken meanwhile. */
  function readBack(jobId: string): void {
    const job = followed.get(jobId);
    if (job === undefined) return;
    job.again = true;
    if (job.reading) return;
    job.reading = true;
    void (async () => {
      while (job.again && !isFinished(job.fold.status)) {
        job.again = false;
        const events = await store.readEvents(jobId, job.fold.lastSeq, 1000);
        for (const event of events) {
          if (event.seq === job.fold.lastSeq + 1)
            pass({ event, owner: job.owner, fold: applyJobEvent(job.fold, event) });
        }
        if (events.length === 1000) job.again = true;
      }
    })()
      .catch(report)
      .finally(() => {
        job.reading = false;
        // a wake that came after the loop's last check and before this point would be lost
        if (job.again && !isFinished(job.fold.status)) readBack(jobId);
      });
  }

  return {
    offer: pass,
    follow(owner, fold) {
      if (!followed.has(fold.jobId)) followed.set(fold.jobId, { owner, fold, reading: false, again: false });
    },
    wake: readBack,
  };
}

type Listener = (notice: JobEventNotice) => void;

export class EventListeners {
  readonly #everywhere = new Set<Listener>();
  readonly #here = new Set<Listener>();
  constructor(private readonly report: (context: string) => (error: unknown) => void) {}

  add(listener: Listener, { appendedHere }: { appendedHere: boolean }): () => void {
    const to = appendedHere ? this.#here : this.#everywhere;
    to.add(listener);
    return () => void to.delete(listener);
  }

  /** Whether anyone listens to other processes' events. */
  wantsRelayed(): boolean {
    return this.#everywhere.size > 0;
  }

  readonly tellEverywhere = (notice: JobEventNotice): void => this.#tell(this.#everywhere, notice);

  readonly tellHere = (notice: JobEventNotice): void => this.#tell(this.#here, notice);

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
