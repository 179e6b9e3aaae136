/**
 * The only writer of job events: it gives each draft its envelope (gapless seq from 1, unique
 * `${jobId}:${seq}` id, ISO time), checks it against the lifecycle, folds it with the shared
 * reducer, stores events and fold in one step, then publishes each event and wakes waiters.
 * Appends to one job are serialized, so seqs and notifications come out in order.
 */
import type { JobEvent } from "../../shared/job-events.js";
import { applyJobEvent, createJobFold, type JobFold } from "../../shared/job-reducer.js";
import { isFinished } from "../../shared/job-view.js";
import type { Caller } from "./caller.js";
import { checkTransition, type EventDraft } from "./state-machine.js";
import { foldOf, StoreConflictError, type CreateQuota, type JobStore, type NewJob, type ResultHead } from "./store.js";

/** What every appended event is published with, for notification fan-out. */
/** Attempts at an append that keeps meeting other processes' appends, before it gives up. */
const MAX_CONFLICT_TRIES = 5;

export type JobEventNotice = { event: JobEvent; owner: Caller; fold: JobFold };

type Appended = { ok: true; fold: JobFold } | { ok: false; fold: JobFold; reason: string };
export type JobLog = {
  /** Stores a new job together with its `job.created` event. */
  /** Creates the job with its first event; with `quota`, only if its owner has room (see `JobStore.create`). */
  create(job: NewJob, created: Extract<EventDraft, { type: "job.created" }>, quota?: CreateQuota): Promise<JobFold>;
  /**
   * Appends drafts (all or none), with the head that commits the result's chunks when the last
   * is `job.completed`; refused with the reason when the lifecycle forbids one.
   */
  append(jobId: string, owner: Caller, drafts: EventDraft[], head?: ResultHead): Promise<Appended>;
  /** Drops the cached fold of a job another process runs; its next append here reads the log. */
  forget(jobId: string): void;
};
export type JobLogOptions = {
  store: JobStore;
  now: () => number;
  publish: (notice: JobEventNotice) => void;
  wake: (jobId: string) => void;
};

/** The event log over `store`: `publish` and `wake` are called after each stored append. */
export function createJobLog({ store, now, publish, wake }: JobLogOptions): JobLog {
  const tails = new Map<string, Promise<unknown>>();
  // folds of unfinished jobs written here, so appends need not read them back
  const folds = new Map<string, JobFold>();

  function serialize<T>(jobId: string, task: () => Promise<T>): Promise<T> {
    const run = (tails.get(jobId) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => {});
    tails.set(jobId, tail);
    void tail.then(() => tails.get(jobId) === tail && tails.delete(jobId));
    return run;
  }

  function build(fold: JobFold, drafts: EventDraft[]): { events: JobEvent[]; folds: JobFold[] } | string {
    const timestamp = new Date(now()).toISOString();
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

  function announce(owner: Caller, events: JobEvent[], after: JobFold[]): void {
    events.forEach((event, i) => {
      try {
        publish({ event, owner, fold: after[i] });
      } catch {
        // a listener's failure is its own; the job goes on
      }
    });
    wake(events[0].jobId);
  }

  return {
    create(job, created, quota) {
      return serialize(job.jobId, async () => {
        const built = build(createJobFold(job.jobId), [created]);
        if (typeof built === "string") throw new Error(built);
        const fold = built.folds[0];
        await store.create(job, built.events, fold, quota);
        folds.set(job.jobId, fold);
        announce(job.owner, built.events, built.folds);
        return fold;
      });
    },
    append(jobId, owner, drafts, head) {
      const attempt = async (): Promise<Appended> => {
        const stored = folds.has(jobId) ? undefined : await store.getJob(jobId);
        const current = folds.get(jobId) ?? (stored && (await foldOf(store, stored)));
        if (!current) return { ok: false, fold: createJobFold(jobId), reason: `no job ${jobId}` };
        if (drafts.length === 0) return { ok: true, fold: current };
        const built = build(current, drafts);
        if (typeof built === "string") return { ok: false, fold: current, reason: built };
        const fold = built.folds[built.folds.length - 1];
        try {
          await store.append(jobId, built.events, fold, head);
        } catch (error) {
          folds.delete(jobId); // read it afresh next time
          throw error;
        }
        if (isFinished(fold.status)) folds.delete(jobId);
        else folds.set(jobId, fold);
        announce(owner, built.events, built.folds);
        return { ok: true, fold };
      };
      return serialize(jobId, async () => {
        // another process appended between this one's reading of the log and its write (a cancel
        // on another instance while this one runs the job, or the worker's progress while another
        // instance cancels): the drafts are checked again against the log as it now is
        for (let tries = 1; ; tries++) {
          try {
            return await attempt();
          } catch (error) {
            if (!(error instanceof StoreConflictError) || tries === MAX_CONFLICT_TRIES) throw error;
          }
        }
      });
    },
    forget(jobId) {
      folds.delete(jobId);
    },
  };
}
