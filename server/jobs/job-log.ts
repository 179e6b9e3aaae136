/**
 * The only writer of job events: it gives each draft its envelope (gapless seq from 1, unique
 * `${jobId}:${seq}` id, ISO time), checks it against the lifecycle, folds it into the view with the
 * shared reducer, stores events and view in one step, then publishes each event and wakes waiters.
 * Appends to one job are serialized, so seqs and notifications come out in order.
 */
import type { JobEvent } from "../../shared/job-events.js";
import { applyJobEvent, createJobView, isTerminalStatus, type JobView } from "../../shared/job-reducer.js";
import type { Caller } from "./access.js";
import { checkTransition, type EventDraft } from "./state-machine.js";
import type { JobStore, NewJob, ResultHead } from "./store.js";

/** What every appended event is published with, for notification fan-out. */
export type JobEventNotice = { event: JobEvent; owner: Caller; view: JobView };

export type Appended = { ok: true; view: JobView } | { ok: false; view: JobView; reason: string };
export type JobLog = {
  /** Stores a new job together with its `job.created` event. */
  create(job: NewJob, created: Extract<EventDraft, { type: "job.created" }>): Promise<JobView>;
  /**
   * Appends drafts (all or none), with the head that commits the result's chunks when the last
   * is `job.completed`; refused with the reason when the lifecycle forbids one.
   */
  append(jobId: string, owner: Caller, drafts: EventDraft[], head?: ResultHead): Promise<Appended>;
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
  // views of unfinished jobs written here, so appends need not read them back
  const views = new Map<string, JobView>();

  function serialize<T>(jobId: string, task: () => Promise<T>): Promise<T> {
    const run = (tails.get(jobId) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => {});
    tails.set(jobId, tail);
    void tail.then(() => tails.get(jobId) === tail && tails.delete(jobId));
    return run;
  }

  function build(view: JobView, drafts: EventDraft[]): { events: JobEvent[]; views: JobView[] } | string {
    const timestamp = new Date(now()).toISOString();
    const events: JobEvent[] = [];
    const after: JobView[] = [];
    for (const draft of drafts) {
      const refused = checkTransition(view, draft);
      if (refused !== null) return refused;
      const seq = view.lastSeq + 1;
      const event = { ...draft, eventId: `${view.jobId}:${seq}`, jobId: view.jobId, seq, timestamp } as JobEvent;
      view = applyJobEvent(view, event);
      events.push(event);
      after.push(view);
    }
    return { events, views: after };
  }

  function announce(owner: Caller, events: JobEvent[], after: JobView[]): void {
    events.forEach((event, i) => {
      try {
        publish({ event, owner, view: after[i] });
      } catch {
        // a listener's failure is its own; the job goes on
      }
    });
    wake(events[0].jobId);
  }

  return {
    create(job, created) {
      return serialize(job.jobId, async () => {
        const built = build(createJobView(job.jobId), [created]);
        if (typeof built === "string") throw new Error(built);
        const view = built.views[0];
        await store.create(job, built.events, view);
        views.set(job.jobId, view);
        announce(job.owner, built.events, built.views);
        return view;
      });
    },
    append(jobId, owner, drafts, head) {
      return serialize(jobId, async (): Promise<Appended> => {
        const current = views.get(jobId) ?? (await store.getJob(jobId))?.view;
        if (!current) return { ok: false, view: createJobView(jobId), reason: `no job ${jobId}` };
        if (drafts.length === 0) return { ok: true, view: current };
        const built = build(current, drafts);
        if (typeof built === "string") return { ok: false, view: current, reason: built };
        const view = built.views[built.views.length - 1];
        try {
          await store.append(jobId, built.events, view, head);
        } catch (error) {
          views.delete(jobId); // read it afresh next time
          throw error;
        }
        if (isTerminalStatus(view.status)) views.delete(jobId);
        else views.set(jobId, view);
        announce(owner, built.events, built.views);
        return { ok: true, view };
      });
    },
  };
}
