/**
 * The one gate in front of every read of a job (events, result, resource, cancel, wait): it loads
 * the job and lets only its owner see it, while it has not expired. A list of jobs holds the same
 * jobs the gate would let through (`mayRead`). A missing, expired or foreign job all get the same
 * answer, so job ids cannot be probed.
 */
import { isFinished } from "../../shared/job-view.js";
import type { Outcome } from "../outcomes.js";
import { ok, unknownJob } from "../outcomes.js";
import type { Caller } from "./caller.js";
import type { JobStore, StoredJob } from "./store.js";

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
