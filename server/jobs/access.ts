/**
 * The one gate in front of every read of a job: only its owner sees it, while it has not expired.
 * A missing, expired or foreign job all get the same answer, so job ids cannot be probed.
 */
import { JobEventSchema } from "../../shared/job-events.js";
import { applyJobEvent } from "../../shared/job-reducer.js";
import { isFinished } from "../../shared/job-view.js";
import { ok, unknownJob, type Outcome } from "../outcomes.js";
import type { Caller } from "./caller.js";
import type { Unended } from "./endings.js";
import { foldOf, type JobStore, type StoredJob } from "./store.js";

export type Gate = (jobId: string, caller: Caller) => Promise<Outcome<StoredJob>>;

/** Whether `caller` may read `job`: their own, and not expired (which reads as gone before the sweep deletes it). */
export const mayRead = (job: StoredJob, caller: Caller, expiredBefore: number): boolean =>
  job.owner.subject === caller.subject && !(isFinished(job.status) && job.createdAt < expiredBefore);

export function createGate(store: JobStore, expiredBefore: () => number): Gate {
  return async (jobId, caller) => {
    const job = await store.getJob(jobId);
    return job && mayRead(job, caller, expiredBefore()) ? ok(job) : unknownJob(jobId);
  };
}

/** A job as its readers see it: with the end this process has not written yet (a full disk) folded in. */
export class SeenJobs {
  constructor(
    private readonly store: JobStore,
    private readonly gate: Gate,
    readonly unwritten: (jobId: string) => Unended | undefined,
  ) {}

  async admit(jobId: string, caller: Caller): Promise<Outcome<StoredJob>> {
    const gated = await this.gate(jobId, caller);
    return gated.ok ? ok(await this.asSeen(gated.value)) : gated;
  }

  /** The job as it reads now; undefined once it has been deleted. */
  async latest(jobId: string): Promise<StoredJob | undefined> {
    const stored = await this.store.getJob(jobId);
    return stored && this.asSeen(stored);
  }

  /** With the unwritten end folded in as the event it will be written as (the next seq). */
  async asSeen(job: StoredJob): Promise<StoredJob> {
    const end = isFinished(job.status) ? undefined : this.unwritten(job.jobId);
    if (end === undefined) return job;
    const { jobId } = job;
    const seq = job.lastSeq + 1;
    const timestamp = new Date(end.at).toISOString();
    const event = JobEventSchema.parse({ ...end.failed, jobId, seq, eventId: `${jobId}:${seq}`, timestamp });
    const fold = applyJobEvent(await foldOf(this.store, job), event);
    return { ...job, status: fold.status, lastSeq: fold.lastSeq, fold };
  }
}
