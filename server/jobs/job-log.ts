/**
 * The only writer of job events: gives each draft its envelope (gapless seq, id, time), checks it
 * against the lifecycle (pending → running → completed | failed | canceled), folds it, stores
 * events and fold in one step, then publishes and wakes. Appends to one job are serialized, so
 * seqs and notifications come out in order.
 */
import type { JobEvent } from "../../shared/job-events.js";
import { applyJobEvent, createJobFold, type JobFold } from "../../shared/job-reducer.js";
import { isFinished } from "../../shared/job-view.js";
import type { Caller } from "./caller.js";
import { checkTransition, type EventDraft } from "./state-machine.js";
import {
  foldOf,
  PerKeyQueue,
  StoreConflictError,
  type CreateQuota,
  type JobStore,
  type NewJob,
  type ResultHead,
} from "./store.js";

/** Tries of an append that keeps meeting other processes' appends. */
const MAX_CONFLICT_TRIES = 5;

export type JobEventNotice = { event: JobEvent; owner: Caller; fold: JobFold };

type Appended = { ok: true; fold: JobFold } | { ok: false; fold: JobFold; reason: string };
export type JobLogOptions = {
  store: JobStore;
  now: () => number;
  publish: (notice: JobEventNotice) => void;
  wake: (jobId: string) => void;
};

export class JobLog {
  readonly #turns = new PerKeyQueue();
  /** Folds of unfinished jobs written here, so appends need not read them back. */
  readonly #folds = new Map<string, JobFold>();

  constructor(private readonly options: JobLogOptions) {}

  /** Creates the job with its first event; with `quota`, only if its owner has room (see `JobStore.create`). */
  create(job: NewJob, created: Extract<EventDraft, { type: "job.created" }>, quota?: CreateQuota): Promise<JobFold> {
    return this.#turns.run(job.jobId, async () => {
      const written = await this.#write(job.owner, createJobFold(job.jobId), [created], (events, fold) =>
        this.options.store.create(job, events, fold, quota),
      );
      if (!written.ok) throw new Error(written.reason);
      return written.fold;
    });
  }

  /** Appends drafts (all or none), with the result's head beside `job.completed`; refused when the lifecycle forbids one. */
  append(jobId: string, owner: Caller, drafts: EventDraft[], head?: ResultHead): Promise<Appended> {
    return this.#turns.run(jobId, async () => {
      // another process appended between this one's read and its write (a cancel on another
      // instance): the drafts are checked again against the log as it now is
      for (let tries = 1; ; tries++) {
        try {
          return await this.#attempt(jobId, owner, drafts, head);
        } catch (error) {
          if (!(error instanceof StoreConflictError) || tries === MAX_CONFLICT_TRIES) throw error;
        }
      }
    });
  }

  /** Drops the cached fold of a job another process runs; its next append here reads the log. */
  forget(jobId: string): void {
    this.#folds.delete(jobId);
  }

  async #attempt(jobId: string, owner: Caller, drafts: EventDraft[], head?: ResultHead): Promise<Appended> {
    const { store } = this.options;
    const stored = this.#folds.has(jobId) ? undefined : await store.getJob(jobId);
    const current = this.#folds.get(jobId) ?? (stored && (await foldOf(store, stored)));
    if (!current) return { ok: false, fold: createJobFold(jobId), reason: `no job ${jobId}` };
    if (drafts.length === 0) return { ok: true, fold: current };
    return this.#write(owner, current, drafts, (events, fold) => store.append(jobId, events, fold, head));
  }

  /** Gives the drafts their envelopes after `fold`, has `save` store them, then publishes and wakes. */
  async #write(
    owner: Caller,
    fold: JobFold,
    drafts: EventDraft[],
    save: (events: JobEvent[], fold: JobFold) => Promise<void>,
  ): Promise<Appended> {
    const { jobId } = fold;
    const timestamp = new Date(this.options.now()).toISOString();
    const notices: JobEventNotice[] = [];
    let after = fold;
    for (const draft of drafts) {
      const refused = checkTransition(after, draft);
      if (refused !== null) return { ok: false, fold, reason: refused };
      const seq = after.lastSeq + 1;
      const event = { ...draft, eventId: `${jobId}:${seq}`, jobId, seq, timestamp };
      after = applyJobEvent(after, event);
      notices.push({ event, owner, fold: after });
    }
    const events = notices.map(({ event }) => event);
    try {
      await save(events, after);
    } catch (error) {
      this.#folds.delete(jobId); // read it afresh next time
      throw error;
    }
    if (isFinished(after.status)) this.#folds.delete(jobId);
    else this.#folds.set(jobId, after);
    for (const notice of notices) {
      try {
        this.options.publish(notice);
      } catch {
        // a listener's failure is its own; the job goes on
      }
    }
    this.options.wake(jobId);
    return { ok: true, fold: after };
  }
}
