/**
 * The only writer of job events: gives each draft its envelope (gapless seq, id, time), checks it
 * against the lifecycle, folds it, stores events and fold in one step, then publishes and wakes.
 * Appends to one job are serialized, so seqs and notifications come out in order.
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

/** Events with the fold after each, or why the lifecycle refuses one. */
type Built = { events: JobEvent[]; folds: JobFold[] } | string;

export class JobLog {
  readonly #turns = new PerKeyQueue();
  /** Folds of unfinished jobs written here, so appends need not read them back. */
  readonly #folds = new Map<string, JobFold>();

  constructor(private readonly options: JobLogOptions) {}

  /** Creates the job with its first event; with `quota`, only if its owner has room (see `JobStore.create`). */
  create(job: NewJob, created: Extract<EventDraft, { type: "job.created" }>, quota?: CreateQuota): Promise<JobFold> {
    return this.#turns.run(job.jobId, async () => {
      const built = buildEvents(createJobFold(job.jobId), [created], this.options.now());
      if (typeof built === "string") throw new Error(built);
      const fold = built.folds[0];
      await this.options.store.create(job, built.events, fold, quota);
      this.#folds.set(job.jobId, fold);
      this.#announce(job.owner, built.events, built.folds);
      return fold;
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
    const built = buildEvents(current, drafts, this.options.now());
    if (typeof built === "string") return { ok: false, fold: current, reason: built };
    const fold = built.folds[built.folds.length - 1];
    try {
      await store.append(jobId, built.events, fold, head);
    } catch (error) {
      this.#folds.delete(jobId); // read it afresh next time
      throw error;
    }
    if (isFinished(fold.status)) this.#folds.delete(jobId);
    else this.#folds.set(jobId, fold);
    this.#announce(owner, built.events, built.folds);
    return { ok: true, fold };
  }

  #announce(owner: Caller, events: JobEvent[], after: JobFold[]): void {
    events.forEach((event, i) => {
      try {
        this.options.publish({ event, owner, fold: after[i] });
      } catch {
        // a listener's failure is its own; the job goes on
      }
    });
    this.options.wake(events[0].jobId);
  }
}

function buildEvents(fold: JobFold, drafts: EventDraft[], now: number): Built {
  const timestamp = new Date(now).toISOString();
  const events: JobEvent[] = [];
  const after: JobFold[] = [];
  for (const draft of drafts) {
    const refused = checkTransition(fold, draft);
    if (refused !== null) return refused;
    const seq = fold.lastSeq + 1;
    const event = { ...draft, eventId: `${fold.jobId}:${seq}`, jobId: fold.jobId, seq, timestamp };
    fold = applyJobEvent(fold, event);
    events.push(event);
    after.push(fold);
  }
  return { events, folds: after };
}
