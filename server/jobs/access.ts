/**
 * The one gate in front of every read of a job (events, result, resource, cancel, wait): it loads
 * the job and lets only its owner see it, while it has not expired. A list of jobs holds the same
 * jobs the gate would let through (`mayRead`). A missing, expired or foreign job all get the same
 * answer, so job ids cannot be probed.
 */
import { JobEventSchema } from "../../shared/job-events.js";
import { applyJobEvent } from "../../shared/job-reducer.js";
import { isFinished } from "../../shared/job-view.js";
import { ok, unknownJob, type Outcome } from "../outcomes.js";
import type { Caller } from "./caller.js";
import type { Unended } from "./endings.js";
import { foldOf, type JobStore, type StoredJob } from "./store.js";

export type Gate = (jobId: string, caller: Caller) => Promise<Outcome<StoredJob>>;

/**
 * Whether `caller` may read `job`: their own, and not expired (finished, and created before
 * `expiredBefore`). The sweep deletes expired jobs now and then; until it does they must already
 * read as gone.
 */
export const mayRead = (job: StoredJob, caller: Caller, expiredBefore: number): boolean =>
  job.owner.subject === caller.subject && !(isFinished(job.status) && job.createdAt < expiredBefore);

/** `expiredBefore()` is the creation time before which a finished job counts as gone. */
export function createGate(store: JobStore, expiredBefore: () => number): Gate {
  return async (jobId, caller) => {
    const job = await store.getJob(jobId);
    return job && mayRead(job, caller, expiredBefore()) ? ok(job) : unknownJob(jobId);
  };
}

/**
 * A job as its readers see it: past the access gate, with the end this process holds for it but
 * has not written yet (a full disk) folded in, so it reads as ended at once.
 */
export class SeenJobs {
  /** `unwritten`: the end of a job this process stopped whose end the store has not taken yet. */
  constructor(
    private readonly store: JobStore,
    private readonly gate: Gate,
    readonly unwritten: (jobId: string) => Unended | undefined,
  ) {}

  /** The gate, then the job as its readers see it. */
  async admit(jobId: string, caller: Caller): Promise<Outcome<StoredJob>> {
    const gated = await this.gate(jobId, caller);
    return gated.ok ? ok(await this.asSeen(gated.value)) : gated;
  }

  /** The job as it reads now; undefined once it has been deleted. */
  async latest(jobId: string): Promise<StoredJob | undefined> {
    const stored = await this.store.getJob(jobId);
    return stored && this.asSeen(stored);
  }

  /**
   * The job as its readers see it: with the end this process holds for it folded in, as the
   * event it will be written as (the next seq), so its status is the end's and not "running".
   */
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
