/**
 * The read side of the job service: events after a seq (with a long poll), waiting for the end,
 * results (result-reads.ts) and a caller's jobs, each past the access gate. A job whose end this
 * process could not yet write (a full disk) reads as ended at once.
 */
import type { z } from "zod";
import { toJobView, type JobFold } from "../../shared/job-reducer.js";
import type { JobEvent } from "../../shared/job-events.js";
import { isFinished, type JobStatus, type JobView } from "../../shared/job-view.js";
import {
  type GetJobEventsInput,
  type GetJobEventsResult,
  type JobSummary,
  TOOL,
  type WaitForJobInput,
  type WaitForJobOutput,
} from "../../shared/tools.js";
import { mayRead, SeenJobs, type Gate } from "./access.js";
import type { Caller } from "./caller.js";
import type { Unended } from "./endings.js";
import { fail, ok, unknownJob, type Outcome } from "../outcomes.js";
import { ResultReads } from "./result-reads.js";
import { foldOf, type JobPosition, type JobStore, type StoredJob } from "./store.js";
import type { Waiters } from "./waiters.js";

/** The status each terminal event ends a job with. */
const ENDED_AS: Partial<Record<JobEvent["type"], JobStatus>> = {
  "job.completed": "completed",
  "job.failed": "failed",
  "job.canceled": "canceled",
};

/**
 * The job's status and last seq as of the newer of two reads: the gate's, or `events` read
 * alongside. A job whose log goes on runs until its terminal event, so no third read is needed.
 */
function statusAfter(job: StoredJob, events: JobEvent[]): { status: JobStatus; lastSeq: number } {
  const last = events.at(-1);
  if (last === undefined || last.seq <= job.lastSeq) return job;
  return { status: ENDED_AS[last.type] ?? "running", lastSeq: last.seq };
}

type Polls = { store: JobStore; seen: SeenJobs; waiters: Waiters; expiredBefore: () => number };

/**
 * The read calls; `unwritten` is the end of a job this process stopped that the store has not taken
 * yet, and jobs created before `expiredBefore()` are gone once finished.
 */
export function createReads(
  store: JobStore,
  gate: Gate,
  waiters: Waiters,
  unwritten: (jobId: string) => Unended | undefined,
  expiredBefore: () => number,
) {
  const seen = new SeenJobs(store, gate, unwritten);
  const polls: Polls = { store, seen, waiters, expiredBefore };
  const results = new ResultReads(store, seen);
  return {
    getEvents: getEvents.bind(null, polls),
    waitFor: waitFor.bind(null, polls),
    getResult: results.getResult,
    readResult: results.readResult,
    list: listJobs.bind(null, polls),
  };
}

/** Events after `afterSeq`; with `waitMs`, resolves as soon as one exists (long poll) or time is up. */
async function getEvents(
  { store, seen, waiters }: Polls,
  { jobId, afterSeq, waitMs, limit }: z.output<typeof GetJobEventsInput>,
  caller: Caller,
  signal?: AbortSignal,
): Promise<Outcome<GetJobEventsResult>> {
  const read = () => store.readEvents(jobId, afterSeq, limit);
  const until = performance.now() + waitMs;
  const arm = () => {
    const ms = until - performance.now();
    return ms > 0 ? waiters.arm(jobId, ms, signal) : undefined;
  };
  // armed before each read, so an append during the read still wakes the wait
  let waiter = arm();
  try {
    // one round trip for the gate's read and the first read; the events go out only past the gate
    const [gated, first] = await Promise.all([seen.admit(jobId, caller), read()]);
    if (!gated.ok) return gated;
    let job = gated.value;
    const ended = isFinished(job.status) && afterSeq >= job.lastSeq;
    // a job stopped here is not waited on: nothing comes until its end is written
    const waits = () => !ended && seen.unwritten(jobId) === undefined;
    let events = first;
    while (events.length === 0 && waits() && waiter !== undefined && (await waiter.settled) === "event") {
      waiter = arm();
      events = await read();
    }
    // stopped while this poll waited: answered as the job now reads
    if (!isFinished(job.status) && seen.unwritten(jobId) !== undefined) job = (await seen.latest(jobId)) ?? job;
    const { status, lastSeq } = statusAfter(job, events);
    const nextSeq = events.length > 0 ? events[events.length - 1].seq : afterSeq;
    return ok({ jobId, status, events, nextSeq, done: isFinished(status) && nextSeq >= lastSeq });
  } finally {
    waiter?.dispose();
  }
}

/** Waits until the job ends or time is up, calling `onView` whenever the view changes. */
async function waitFor(
  { store, seen, waiters }: Polls,
  { jobId, timeoutMs }: z.output<typeof WaitForJobInput>,
  caller: Caller,
  onView: (view: JobView) => void,
  signal?: AbortSignal,
): Promise<Outcome<z.infer<typeof WaitForJobOutput>>> {
  const gated = await seen.admit(jobId, caller);
  if (!gated.ok) return gated;
  let fold: JobFold = await foldOf(store, gated.value);
  const until = performance.now() + timeoutMs;
  while (!isFinished(fold.status) && performance.now() < until && !signal?.aborted) {
    const waiter = waiters.arm(jobId, until - performance.now(), signal);
    const fresh = await seen.latest(jobId);
    // deleted meanwhile (a delete writes no end first): the wait ends as a read would
    if (fresh === undefined) {
      waiter.dispose();
      return unknownJob(jobId);
    }
    if (fresh.lastSeq !== fold.lastSeq) {
      waiter.dispose();
      fold = await foldOf(store, fresh);
      try {
        onView(toJobView(fold));
      } catch {
        // the caller's listener failing does not end the wait
      }
    } else if ((await waiter.settled) !== "event") break;
  }
  return ok({ jobId, status: fold.status, done: isFinished(fold.status), view: toJobView(fold) });
}

const cursorOf = ({ createdAt, jobId }: JobPosition): string =>
  Buffer.from(JSON.stringify([createdAt, jobId])).toString("base64url");

/** The position a cursor names; undefined when it is not one `cursorOf` gave. */
function positionOf(cursor: string): JobPosition | undefined {
  try {
    const position: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(position) || position.length !== 2) return undefined;
    const [createdAt, jobId] = position as unknown[];
    if (Number.isInteger(createdAt) && typeof jobId === "string" && jobId !== "")
      return { createdAt: createdAt as number, jobId };
  } catch {
    // not base64url JSON: not a cursor
  }
  return undefined;
}

const summaryOf = (view: JobView, createdAt: number): JobSummary => ({
  jobId: view.jobId,
  title: view.title,
  status: view.status,
  percentage: view.percentage,
  stage: view.status === "running" ? view.stageLabel : null,
  processed: view.processed,
  total: view.total,
  resultCount: view.resultCount,
  ...(view.currency && { currency: view.currency }),
  createdAt: new Date(createdAt).toISOString(),
  endedAt: isFinished(view.status) ? view.finishedAt : null,
});

/**
 * A caller's jobs, newest first, a page at a time: only those the gate would let through. A page is
 * read one job past its end, so that a next cursor is given only when there is a next page.
 */
async function listJobs(
  { store, seen, expiredBefore }: Polls,
  caller: Caller,
  { cursor, limit }: { cursor?: string; limit: number },
): Promise<Outcome<{ jobs: JobSummary[]; nextCursor: string | null }>> {
  const before = cursor === undefined ? undefined : positionOf(cursor);
  if (cursor !== undefined && before === undefined)
    return fail(
      "invalid_arguments",
      `The cursor "${cursor.slice(0, 40)}" is not one ${TOOL.listJobs} gave.`,
      "Pass a nextCursor exactly as it came, or leave cursor out for the newest analyses.",
    );
  const read = await store.listJobs(caller.subject, { before, limit: limit + 1 });
  const page = read.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = read.length > limit && last ? cursorOf(last) : null;
  // an expired job not yet swept is left out: the page may come out short
  const until = expiredBefore();
  const jobs = await Promise.all(
    page
      .filter((job) => mayRead(job, caller, until))
      .map(async (job) => summaryOf(toJobView(await foldOf(store, await seen.asSeen(job))), job.createdAt)),
  );
  return ok({ jobs, nextCursor });
}
