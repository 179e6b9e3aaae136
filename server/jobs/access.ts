/**
 * The one gate in front of every read of a job: only its owner sees it, while it has not expired.
 * A missing, expired or foreign job all get the same answer, so job ids cannot be probed.
 */
import { isFinished } from "../../shared/job-view.js";
import { ok, unknownJob, type Outcome } from "../outcomes.js";
import type { Caller } from "./caller.js";
import type { JobStore, StoredJob } from "./store.js";

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
