/**
 * Who hears of appended events: listeners of every process's events (those other processes append
 * reach them through the relay) and listeners of this process's appends alone. One failing
 * listener never keeps an event from the others; its failure is reported.
 */
import type { JobEventNotice } from "./job-log.js";

type Listener = (notice: JobEventNotice) => void;

export class EventListeners {
  /** Listeners of events appended by any process. */
  readonly #everywhere = new Set<Listener>();
  /** Listeners of the events this process appends. */
  readonly #here = new Set<Listener>();
  readonly #report: (context: string) => (error: unknown) => void;

  constructor(report: (context: string) => (error: unknown) => void) {
    this.#report = report;
  }

  /** Adds a listener; returns the function that removes it. */
  add(listener: Listener, { appendedHere }: { appendedHere: boolean }): () => void {
    const to = appendedHere ? this.#here : this.#everywhere;
    to.add(listener);
    return () => void to.delete(listener);
  }

  /** Whether anyone listens to other processes' events: with none, there is nothing to relay. */
  wantsRelayed(): boolean {
    return this.#everywhere.size > 0;
  }

  /** Tells the listeners of every process's events (this one's appends come through the relay). */
  readonly tellEverywhere = (notice: JobEventNotice): void => this.#tell(this.#everywhere, notice);

  /** Tells the listeners of this process's appends. */
  readonly tellHere = (notice: JobEventNotice): void => this.#tell(this.#here, notice);

  #tell(to: Set<Listener>, notice: JobEventNotice): void {
    for (const listener of [...to]) {
      try {
        listener(notice);
      } catch (error) {
        // one failing subscriber must not keep the event from the others
        this.#report(`a listener of job ${notice.event.jobId}`)(error);
      }
    }
  }
}
