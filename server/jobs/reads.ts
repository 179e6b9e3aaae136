/**
 * The read side of the job service: events after a seq (with a long poll), waiting for the end,
 * result pages and the full result. Nothing is answered unless the gate lets the caller in; waits
 * are woken by appends. A job this process stopped but could not yet write the end of (a full
 * disk) reads as ended with that end at once, though its events go on only once the end is written.
 */
import type { z } from "zod";
import { applyJobEvent, toJobView, type JobFold } from "../../shared/job-reducer.js";
import { JobEventSchema, type JobEvent } from "../../shared/job-events.js";
import { isFinished, type JobStatus, type JobView } from "../../shared/job-view.js";
import {
  URI,
  type GetJobEventsInput,
  type GetJobEventsResult,
  type GetJobResultInput,
  type GetJobResultResult,
  type JobResultPage,
  type PersonResult,
  type WaitForJobInput,
  type WaitForJobOutput,
} from "../../shared/tools.js";
import type { Gate } from "./access.js";
import type { Caller } from "./caller.js";
import type { Failed } from "./executor.js";
import { fail, notFinished, ok, unknownJob, type Outcome } from "./outcomes.js";
import { CHUNK_SIZE, decodeChunk } from "./result-codec.js";
import { foldOf, type JobStore, type ResultHead, type StoredJob } from "./store.js";
import type { Waiters } from "./waiters.js";

/** The status each terminal event ends a job with. */
const ENDED_AS: Partial<Record<JobEvent["type"], JobStatus>> = {
  "job.completed": "completed",
  "job.failed": "failed",
  "job.canceled": "canceled",
};

/**
 * The job's status and last seq as of the newer of two reads: the gate's, or `events` (read after
 * it, or alongside). Past the gate's read, a job whose log goes on runs until its terminal event,
 * always its last; so the status answered is never older than the events, without a third read.
 */
function statusAfter(job: StoredJob, events: JobEvent[]): { status: JobStatus; lastSeq: number } {
  const last = events.at(-1);
  if (last === undefined || last.seq <= job.lastSeq) return job;
  return { status: ENDED_AS[last.type] ?? "running", lastSeq: last.seq };
}

/** The job service's read calls (job-service.ts); each answers only what the gate lets the caller read. */
export type JobReads = {
  /** Events after `afterSeq`; with `waitMs`, resolves as soon as one exists (long poll) or time is up. */
  getEvents: (
    args: z.output<typeof GetJobEventsInput>,
    caller: Caller,
    signal?: AbortSignal,
  ) => Promise<Outcome<GetJobEventsResult>>;
  getResult: (args: z.output<typeof GetJobResultInput>, caller: Caller) => Promise<Outcome<GetJobResultResult>>;
  /** The part of the result from person `offset` (default 0), bounded in size, for the result resource. */
  readResult: (jobId: string, caller: Caller, offset?: number) => Promise<Outcome<JobResultPage>>;
  /** Waits until the job ends or time is up, calling `onView` whenever the view changes. */
  waitFor: (
    args: z.output<typeof WaitForJobInput>,
    caller: Caller,
    onView: (view: JobView) => void,
    signal?: AbortSignal,
  ) => Promise<Outcome<z.infer<typeof WaitForJobOutput>>>;
};

/**
 * A part of the result resource holds at most this many people and, past the first person, this
 * much JSON: about 1 MB, so a 200,000-person result is read in parts of ~1,300 typical people.
 */
const RESULT_PAGE_PEOPLE = 2_000;
const RESULT_PAGE_BYTES = 1024 * 1024;

/** The end of a job that this process stopped but has not written yet, and when it stopped it. */
export type UnwrittenEnd = { failed: Failed; at: number };

/**
 * The read calls of the service; each awaits `ready` (recovery) and passes `gate` first.
 * `unwritten` names the end of a job this process stopped whose end the store has not taken yet.
 */
export function createReads(
  store: JobStore,
  gate: Gate,
  waiters: Waiters,
  ready: Promise<void>,
  unwritten: (jobId: string) => UnwrittenEnd | undefined = () => undefined,
): JobReads {
  /**
   * The job as its readers see it: with the end this process holds for it folded in, as the
   * event it will be written as (the next seq), so its status is the end's and not "running".
   */
  async function asSeen(job: StoredJob): Promise<StoredJob> {
    const end = isFinished(job.status) ? undefined : unwritten(job.jobId);
    if (end === undefined) return job;
    const { jobId } = job;
    const seq = job.lastSeq + 1;
    const timestamp = new Date(end.at).toISOString();
    const event = JobEventSchema.parse({ ...end.failed, jobId, seq, eventId: `${jobId}:${seq}`, timestamp });
    const fold = applyJobEvent(await foldOf(store, job), event);
    return { ...job, status: fold.status, lastSeq: fold.lastSeq, fold };
  }
  /** The gate, then the job as its readers see it. */
  const admit = async (jobId: string, caller: Caller) => {
    const gated = await gate(jobId, caller);
    return gated.ok ? ok(await asSeen(gated.value)) : gated;
  };
  /** The job as it reads now; undefined once it has been deleted. */
  const latest = async (jobId: string) => {
    const stored = await store.getJob(jobId);
    return stored && asSeen(stored);
  };

  /** The head of a completed job's result, or the error that says why there is none. */
  async function finished(job: StoredJob) {
    const { jobId, status } = job;
    if (status !== "completed") {
      const { percentage } = await foldOf(store, job);
      return notFinished<ResultHead>(jobId, status, percentage);
    }
    const head = await store.readResultHead(jobId);
    return head
      ? ok(head)
      : fail<ResultHead>("internal", `The result of job ${jobId} is missing.`, "Run the analysis again.");
  }

  return {
    async getEvents({ jobId, afterSeq, waitMs, limit }, caller, signal) {
      await ready;
      const read = () => store.readEvents(jobId, afterSeq, limit);
      const until = performance.now() + waitMs;
      const arm = () => {
        const ms = until - performance.now();
        return ms > 0 ? waiters.arm(jobId, ms, signal) : undefined;
      };
      // armed before each read, so an append during the read still wakes the wait; when too many
      // polls wait already it settles at once as "full", and this one answers with what there is
      let waiter = arm();
      try {
        // the gate's read and the first read of the events go out together (one round trip to a
        // store over the network); the events are answered only if the gate lets the caller in
        const [gated, first] = await Promise.all([admit(jobId, caller), read()]);
        if (!gated.ok) return gated;
        let job = gated.value;
        const ended = isFinished(job.status) && afterSeq >= job.lastSeq;
        // a job stopped here is not waited on: nothing comes until its end is written
        const waits = () => !ended && unwritten(jobId) === undefined;
        let events = first;
        while (events.length === 0 && waits() && waiter !== undefined && (await waiter.settled) === "event") {
          waiter = arm();
          events = await read();
        }
        // stopped while this poll waited: answered as the job now reads
        if (!isFinished(job.status) && unwritten(jobId) !== undefined) job = (await latest(jobId)) ?? job;
        const { status, lastSeq } = statusAfter(job, events);
        const nextSeq = events.length > 0 ? events[events.length - 1].seq : afterSeq;
        return ok({ jobId, status, events, nextSeq, done: isFinished(status) && nextSeq >= lastSeq });
      } finally {
        waiter?.dispose();
      }
    },

    async waitFor({ jobId, timeoutMs }, caller, onView, signal) {
      await ready;
      const gated = await admit(jobId, caller);
      if (!gated.ok) return gated;
      let fold: JobFold = await foldOf(store, gated.value);
      const until = performance.now() + timeoutMs;
      while (!isFinished(fold.status) && performance.now() < until && !signal?.aborted) {
        const waiter = waiters.arm(jobId, until - performance.now(), signal);
        const fresh = await latest(jobId);
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
    },

    async getResult({ jobId, offset, limit }, caller) {
      await ready;
      const gated = await admit(jobId, caller);
      if (!gated.ok) return gated;
      if (gated.value.status === "running") return ok(await composedSoFar(gated.value, offset, limit));
      const head = await finished(gated.value);
      if (!head.ok) return head;
      const { total, chunkSize, skipped, summary, figures } = head.value;
      const page: GetJobResultResult = {
        jobId,
        summary,
        total,
        offset,
        nextOffset: null,
        people: [],
        skipped: [],
        resultUri: URI.jobResult(jobId),
        partial: false,
        ...(figures === undefined ? {} : { figures }),
      };
      if (offset >= total) {
        if (offset === 0) page.skipped = skipped;
        return ok(page);
      }
      // one person before the page too: a page carries the skipped rows since the previous page
      const from = Math.max(0, offset - 1);
      const to = Math.min(total, offset + limit);
      const first = Math.floor(from / chunkSize);
      const people = await readPeople(jobId, first, Math.ceil(to / chunkSize));
      const base = first * chunkSize;
      page.people = people.slice(offset - base, to - base);
      const after = offset === 0 ? -Infinity : people[offset - 1 - base].row;
      const upTo = to >= total ? Infinity : page.people[page.people.length - 1].row;
      page.skipped = skipped.filter((s) => s.row > after && s.row <= upTo);
      page.nextOffset = to < total ? to : null;
      return ok(page);
    },

    async readResult(jobId, caller, offset = 0) {
      await ready;
      const gated = await admit(jobId, caller);
      if (!gated.ok) return gated;
      const head = await finished(gated.value);
      if (!head.ok) return head;
      const { occasion, budgetPerPerson, summary, skipped, total, chunkSize } = head.value;
      const page: JobResultPage = {
        jobId,
        occasion,
        budgetPerPerson,
        summary,
        total,
        offset,
        people: [],
        skipped: [],
        next: null,
      };
      if (offset >= total) {
        if (offset === 0) page.skipped = skipped;
        return ok(page);
      }
      const { people, after } = await readBounded(jobId, offset, chunkSize);
      const end = offset + people.length;
      const upTo = end >= total ? Infinity : (people.at(-1)?.row ?? Infinity);
      page.people = people;
      page.skipped = skipped.filter((s) => s.row > after && s.row <= upTo);
      page.next = end < total && people.length > 0 ? URI.jobResultPage(jobId, end) : null;
      return ok(page);
    },
  };

  /**
   * The people from `offset` on, up to `RESULT_PAGE_PEOPLE` and `RESULT_PAGE_BYTES` of JSON (at
   * least one, however large), and the row of the person before `offset` (-Infinity for none).
   */
  async function readBounded(jobId: string, offset: number, chunkSize: number) {
    const people: PersonResult[] = [];
    let after = -Infinity;
    let bytes = 0;
    for (let chunk = Math.floor(Math.max(0, offset - 1) / chunkSize); ; chunk++) {
      const decoded = await readPeople(jobId, chunk, chunk + 1);
      const base = chunk * chunkSize;
      if (offset > 0 && offset - 1 - base < decoded.length && offset - 1 >= base)
        after = decoded[offset - 1 - base].row;
      for (let i = offset + people.length - base; i < decoded.length; i++) {
        const size = Buffer.byteLength(JSON.stringify(decoded[i]));
        if (people.length === RESULT_PAGE_PEOPLE || (people.length > 0 && bytes + size > RESULT_PAGE_BYTES))
          return { people, after };
        people.push(decoded[i]);
        bytes += size;
      }
      if (decoded.length < chunkSize) return { people, after };
    }
  }

  /** A page of the people a running job has composed so far (none before its compose stage). */
  async function composedSoFar(job: StoredJob, offset: number, limit: number): Promise<GetJobResultResult> {
    const fold = await foldOf(store, job);
    const total = fold.stage === "compose" && fold.processed !== null ? fold.processed : 0;
    const first = Math.floor(offset / CHUNK_SIZE);
    const to = Math.min(total, offset + limit);
    const composed = to > offset ? await readPeople(job.jobId, first, Math.ceil(to / CHUNK_SIZE), "composed") : [];
    const people = composed.slice(offset - first * CHUNK_SIZE, to - first * CHUNK_SIZE);
    const end = offset + people.length;
    return {
      jobId: job.jobId,
      summary: "",
      total,
      offset,
      nextOffset: end < total ? end : null,
      people,
      skipped: [],
      resultUri: URI.jobResult(job.jobId),
      partial: true,
    };
  }

  /** People of chunks `from` to `to`: of the committed result, or of the one still being composed. */
  async function readPeople(
    jobId: string,
    from: number,
    to: number,
    of: "result" | "composed" = "result",
  ): Promise<PersonResult[]> {
    const chunks =
      of === "result" ? await store.readResultChunks(jobId, from, to) : await store.readComposedChunks(jobId, from, to);
    return chunks.flatMap(decodeChunk);
  }
}
