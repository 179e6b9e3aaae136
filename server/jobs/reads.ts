/**
 * The read side of the job service: events after a seq (with a long poll), waiting for the end,
 * results and a caller's jobs, each past the access gate. A job whose end this process could not
 * yet write (a full disk) reads as ended at once; a poll's waiter is armed before the store is read.
 */
import { z } from "zod";
import { applyJobEvent, toJobView, type JobFold } from "../../shared/job-reducer.js";
import { JobEventSchema, type JobEvent } from "../../shared/job-events.js";
import type { SkippedRow } from "../../shared/files.js";
import { isFinished, type JobStatus, type JobView } from "../../shared/job-view.js";
import {
  type GetJobEventsInput,
  type GetJobEventsResult,
  type GetJobResultInput,
  type GetJobResultResult,
  type JobResultPage,
  type JobSummary,
  type PersonResult,
  TOOL,
  URI,
  type WaitForJobInput,
  type WaitForJobOutput,
} from "../../shared/tools.js";
import { mayRead, type Gate } from "./access.js";
import type { Caller } from "./caller.js";
import type { Unended } from "./endings.js";
import { fail, notFinished, ok, unknownJob, type Outcome } from "../outcomes.js";
import { CHUNK_SIZE, decodeChunk } from "./result-codec.js";
import { foldOf, type JobPosition, type JobStore, type ResultHead, type StoredJob } from "./store.js";
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

/** A job as its readers see it: with the end this process has not written yet (a full disk) folded in. */
class SeenJobs {
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
  const polls: Polls = { store, seen: new SeenJobs(store, gate, unwritten), waiters, expiredBefore };
  return {
    getEvents: getEvents.bind(null, polls),
    waitFor: waitFor.bind(null, polls),
    getResult: getResult.bind(null, polls),
    readResult: readResult.bind(null, polls),
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

/**
 * A part of the result resource holds at most this many people and, past the first person, this
 * much JSON: about 1 MB, so a 200,000-person result is read in parts of ~1,300 typical people.
 */
const RESULT_PAGE_PEOPLE = 2_000;
const RESULT_PAGE_BYTES = 1024 * 1024;

/** What a page of `get_job_result` or a file takes from its result's head. */
type PageHead = Pick<ResultHead, "total" | "chunkSize" | "skipped" | "summary" | "currency" | "figures" | "locale">;

/** A page of a completed job's people with the rows skipped between them, or of the people a running job has composed so far. */
async function getResult(
  { store, seen }: Polls,
  { jobId, offset, limit }: z.output<typeof GetJobResultInput>,
  caller: Caller,
): Promise<Outcome<GetJobResultResult>> {
  const gated = await seen.admit(jobId, caller);
  if (!gated.ok) return gated;
  const { partial, head } = await headOf(store, gated.value);
  if (!head.ok) return head;
  const { total, chunkSize, skipped, summary, figures, currency = "USD" } = head.value;
  const to = Math.min(total, offset + limit);
  const { people, after } = await readPeople(store, jobId, offset, to, chunkSize, partial);
  // a running job's page may come out short: it ended, and its chunks became the result, meanwhile
  const end = partial ? offset + people.length : to;
  return ok({
    jobId,
    currency,
    summary,
    total,
    offset,
    nextOffset: end < total ? end : null,
    people,
    skipped: skippedOn(skipped, offset, total, after, people),
    resultUri: URI.jobResult(jobId),
    partial,
    ...(figures === undefined ? {} : { figures }),
  });
}

/** A part of the result resource, from `offset`: within the part's bounds, and at least one person. */
async function readResult(
  { store, seen }: Polls,
  jobId: string,
  caller: Caller,
  offset = 0,
): Promise<Outcome<JobResultPage>> {
  const gated = await seen.admit(jobId, caller);
  if (!gated.ok) return gated;
  const head = await finished(store, gated.value);
  if (!head.ok) return head;
  const { occasion, budgetPerPerson, summary, skipped, total, chunkSize, currency = "USD" } = head.value;
  const { people, after } = await readPart(store, jobId, offset, total, chunkSize);
  const end = offset + people.length;
  return ok({
    jobId,
    occasion,
    budgetPerPerson,
    currency,
    summary,
    total,
    offset,
    people,
    skipped: skippedOn(skipped, offset, total, after, people),
    next: end < total && people.length > 0 ? URI.jobResultPage(jobId, end) : null,
  });
}

/** A job's result head; while it runs (`partial`), only the people composed so far (none before that stage). */
export async function headOf(store: JobStore, job: StoredJob): Promise<{ partial: boolean; head: Outcome<PageHead> }> {
  if (job.status !== "running") return { partial: false, head: await finished(store, job) };
  const fold = await foldOf(store, job);
  const total = fold.stage === "compose" && fold.processed !== null ? fold.processed : 0;
  const currency = fold.currency ?? "USD";
  return { partial: true, head: ok({ total, chunkSize: CHUNK_SIZE, skipped: [], summary: "", currency }) };
}

/** The head of a completed job's result, or the error that says why there is none. */
async function finished(store: JobStore, job: StoredJob): Promise<Outcome<ResultHead>> {
  const { jobId, status } = job;
  if (status !== "completed") return notFinished<ResultHead>(jobId, status, (await foldOf(store, job)).percentage);
  const head = await store.readResultHead(jobId);
  return head
    ? ok(head)
    : fail<ResultHead>("internal", `The result of job ${jobId} is missing.`, "Run the analysis again.");
}

/**
 * People `offset` up to `to` of the committed result or (`composed`) the one being composed, and
 * the row of the person before them: a page carries the skipped rows since the previous one.
 */
async function readPeople(
  store: JobStore,
  jobId: string,
  offset: number,
  to: number,
  chunkSize: number,
  composed = false,
) {
  if (to <= offset) return { people: [], after: -Infinity };
  const first = Math.floor(Math.max(0, offset - 1) / chunkSize);
  const last = Math.ceil(to / chunkSize);
  const read = (await store.readChunks(jobId, first, last, composed)).flatMap(decodeChunk);
  const base = first * chunkSize;
  return { people: read.slice(offset - base, to - base), after: read[offset - 1 - base]?.row ?? -Infinity };
}

/**
 * People of a result part from `offset`, a chunk at a time until the part's bounds (at least one
 * person), and the row of the person before them: no chunk past the bounds is read.
 */
async function readPart(store: JobStore, jobId: string, offset: number, total: number, chunkSize: number) {
  const last = Math.min(total, offset + RESULT_PAGE_PEOPLE);
  let to = Math.min(last, (Math.floor(offset / chunkSize) + 1) * chunkSize);
  const first = await readPeople(store, jobId, offset, to, chunkSize);
  const people: PersonResult[] = [];
  let bytes = 0;
  for (let batch = first.people; batch.length > 0;) {
    for (const person of batch) {
      bytes += Buffer.byteLength(JSON.stringify(person));
      if (bytes > RESULT_PAGE_BYTES && people.length > 0) return { people, after: first.after };
      people.push(person);
    }
    if (to >= last) break;
    const next = Math.min(last, to + chunkSize);
    batch = (await store.readChunks(jobId, to / chunkSize, to / chunkSize + 1))
      .flatMap(decodeChunk)
      .slice(0, next - to);
    to = next;
  }
  return { people, after: first.after };
}

/**
 * The skipped rows a page from `offset` carries: those after the row of the person before it
 * (`after`) up to its last person, or to the end on the last page; all of them on an empty result.
 */
function skippedOn(skipped: SkippedRow[], offset: number, total: number, after: number, people: PersonResult[]) {
  if (offset >= total) return offset === 0 ? skipped : [];
  const upTo = offset + people.length >= total ? Infinity : (people.at(-1)?.row ?? Infinity);
  return skipped.filter((s) => s.row > after && s.row <= upTo);
}

const cursorOf = ({ createdAt, jobId }: JobPosition): string =>
  Buffer.from(JSON.stringify([createdAt, jobId])).toString("base64url");

/** A cursor's position: the creation time and the id, as `cursorOf` gave them. */
const Position = z.tuple([z.number().int(), z.string().min(1)]);

/** The position a cursor names; undefined when it is not one `cursorOf` gave. */
function positionOf(cursor: string): JobPosition | undefined {
  try {
    const parsed = Position.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return parsed.success ? { createdAt: parsed.data[0], jobId: parsed.data[1] } : undefined;
  } catch {
    return undefined; // not base64url JSON: not a cursor
  }
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
