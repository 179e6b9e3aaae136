/**
 * The read side of the job service: events after a seq (with a long poll), waiting for the end,
 * result pages and the full result. Every read passes the gate first; waits are woken by appends.
 */
import { applyJobEvents, isTerminalStatus, type JobView } from "../../shared/job-reducer.js";
import { URI, type GetJobResultResult, type JobResult, type PersonResult } from "../../shared/tools.js";
import type { Gate } from "./access.js";
import type { JobService } from "./job-service.js";
import { fail, notFinished, ok } from "./outcomes.js";
import { decodeChunk } from "./result-codec.js";
import type { JobStore, ResultHead } from "./store.js";
import type { Waiters } from "./waiters.js";

type Reads = Pick<JobService, "getEvents" | "waitFor" | "getResult" | "readResult">;

/** The read calls of the service; each awaits `ready` (recovery) and passes `gate` first. */
export function createReads(store: JobStore, gate: Gate, waiters: Waiters, ready: Promise<void>): Reads {
  const latest = async (jobId: string, fallback: JobView) => (await store.getJob(jobId))?.view ?? fallback;

  /** The head of a completed job's result, or the error that says why there is none. */
  async function finished(jobId: string, view: JobView) {
    if (view.status !== "completed") return notFinished<ResultHead>(jobId, view.status, view.percentage);
    const head = await store.readResultHead(jobId);
    return head
      ? ok(head)
      : fail<ResultHead>("internal", `The result of job ${jobId} is missing.`, "Run the analysis again.");
  }

  return {
    async getEvents({ jobId, afterSeq, waitMs, limit }, caller, signal) {
      await ready;
      const gated = await gate(jobId, caller);
      if (!gated.ok) return gated;
      const read = () => store.readEvents(jobId, afterSeq, limit);
      let events = await read();
      const ended = isTerminalStatus(gated.value.view.status) && afterSeq >= gated.value.view.lastSeq;
      const until = performance.now() + waitMs;
      while (events.length === 0 && !ended && performance.now() < until && !signal?.aborted) {
        // armed before the read, so an append in between still wakes this wait
        const waiter = waiters.arm(jobId, until - performance.now(), signal);
        events = await read();
        if (events.length > 0) waiter.dispose();
        else if ((await waiter.settled) === "event") events = await read();
        else break;
      }
      const view = applyJobEvents(await latest(jobId, gated.value.view), events);
      const nextSeq = events.length > 0 ? events[events.length - 1].seq : afterSeq;
      return ok({
        jobId,
        status: view.status,
        events,
        nextSeq,
        done: isTerminalStatus(view.status) && nextSeq >= view.lastSeq,
        view,
      });
    },

    async waitFor({ jobId, timeoutMs }, caller, onView, signal) {
      await ready;
      const gated = await gate(jobId, caller);
      if (!gated.ok) return gated;
      let view = gated.value.view;
      const until = performance.now() + timeoutMs;
      while (!isTerminalStatus(view.status) && performance.now() < until && !signal?.aborted) {
        const waiter = waiters.arm(jobId, until - performance.now(), signal);
        const fresh = await latest(jobId, view);
        if (fresh.lastSeq !== view.lastSeq) {
          waiter.dispose();
          view = fresh;
          try {
            onView(view);
          } catch {
            // the caller's listener failing does not end the wait
          }
        } else if ((await waiter.settled) !== "event") break;
      }
      return ok({ jobId, status: view.status, done: isTerminalStatus(view.status), view });
    },

    async getResult({ jobId, offset, limit }, caller) {
      await ready;
      const gated = await gate(jobId, caller);
      if (!gated.ok) return gated;
      const head = await finished(jobId, gated.value.view);
      if (!head.ok) return head;
      const { total, chunkSize, skipped, summary } = head.value;
      const page: GetJobResultResult = {
        jobId,
        summary,
        total,
        offset,
        nextOffset: null,
        people: [],
        skipped: [],
        resultUri: URI.jobResult(jobId),
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

    async readResult(jobId, caller) {
      await ready;
      const gated = await gate(jobId, caller);
      if (!gated.ok) return gated;
      const head = await finished(jobId, gated.value.view);
      if (!head.ok) return head;
      const { occasion, budgetPerPerson, summary, skipped, total, chunkSize } = head.value;
      const people = await readPeople(jobId, 0, Math.ceil(total / chunkSize));
      const result: JobResult = { jobId, occasion, budgetPerPerson, summary, people, skipped };
      return ok(result);
    },
  };

  async function readPeople(jobId: string, from: number, to: number): Promise<PersonResult[]> {
    const chunks = await store.readResultChunks(jobId, from, to);
    return chunks.flatMap(decodeChunk);
  }
}
