/**
 * A caller's jobs, newest first, a page at a time (what `list_jobs` shows): only the jobs the
 * access gate would let the caller read, each as its readers see it (seen-jobs.ts), folded from its
 * cached fold. A page is read one job past its end, so the next page's position is known only
 * when there is one.
 */
import { toJobView } from "../../shared/job-reducer.js";
import type { JobView } from "../../shared/job-view.js";
import { mayRead } from "./access.js";
import type { Caller } from "./caller.js";
import { ok, type Outcome } from "../outcomes.js";
import type { SeenJobs } from "./seen-jobs.js";
import { foldOf, type JobPage, type JobPosition, type JobStore } from "./store.js";

/** A job in a list: its view, and its creation time (ms since the epoch) as the store keeps it. */
export type ListedJob = { view: JobView; createdAt: number };

/** One page of a caller's jobs, and where the next (older) page starts; null on the last. */
type JobList = { jobs: ListedJob[]; next: JobPosition | null };

export type ListJobs = (caller: Caller, page: JobPage) => Promise<Outcome<JobList>>;

/**
 * The list call over `store`; `expiredBefore()` is the creation time before which a finished job
 * counts as gone (as for the gate), `ready` the service's recovery.
 */
export function createJobList(
  store: JobStore,
  seen: SeenJobs,
  expiredBefore: () => number,
  ready: Promise<void>,
): ListJobs {
  return async (caller, { before, limit }) => {
    await ready;
    const read = await store.listJobs(caller.subject, { before, limit: limit + 1 });
    const page = read.slice(0, limit);
    const last = page.at(-1);
    const next = read.length > limit && last ? { createdAt: last.createdAt, jobId: last.jobId } : null;
    // an expired job not yet swept is left out, as the gate would refuse it; the page may come out
    // shorter than the limit, and the next one starts where it would have anyway
    const until = expiredBefore();
    const jobs = await Promise.all(
      page
        .filter((job) => mayRead(job, caller, until))
        .map(async (job) => ({
          view: toJobView(await foldOf(store, await seen.asSeen(job))),
          createdAt: job.createdAt,
        })),
    );
    return ok({ jobs, next });
  };
}
