/**
 * The result of a job for its readers: pages of a completed job's people (with the rows skipped
 * between them), the people a running job has composed so far, and the result resource's parts,
 * bounded in size.
 */
import type { z } from "zod";
import {
  URI,
  type GetJobResultInput,
  type GetJobResultResult,
  type JobResultPage,
  type PersonResult,
} from "../../shared/tools.js";
import type { Caller } from "./caller.js";
import { fail, notFinished, ok, type Outcome } from "../outcomes.js";
import { CHUNK_SIZE, decodeChunk } from "./result-codec.js";
import type { SeenJobs } from "./access.js";
import { foldOf, type JobStore, type ResultHead, type StoredJob } from "./store.js";

/**
 * A part of the result resource holds at most this many people and, past the first person, this
 * much JSON: about 1 MB, so a 200,000-person result is read in parts of ~1,300 typical people.
 */
const RESULT_PAGE_PEOPLE = 2_000;
const RESULT_PAGE_BYTES = 1024 * 1024;

export class ResultReads {
  constructor(
    private readonly store: JobStore,
    private readonly seen: SeenJobs,
    private readonly ready: Promise<void>,
  ) {}

  readonly getResult = async (
    { jobId, offset, limit }: z.output<typeof GetJobResultInput>,
    caller: Caller,
  ): Promise<Outcome<GetJobResultResult>> => {
    await this.ready;
    const gated = await this.seen.admit(jobId, caller);
    if (!gated.ok) return gated;
    if (gated.value.status === "running") return ok(await this.#composedSoFar(gated.value, offset, limit));
    const head = await this.#finished(gated.value);
    if (!head.ok) return head;
    const { total, chunkSize, skipped, summary, figures, currency = "USD" } = head.value;
    const page: GetJobResultResult = {
      jobId,
      currency,
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
    const people = await this.#readPeople(jobId, first, Math.ceil(to / chunkSize));
    const base = first * chunkSize;
    page.people = people.slice(offset - base, to - base);
    const after = offset === 0 ? -Infinity : people[offset - 1 - base].row;
    const upTo = to >= total ? Infinity : page.people[page.people.length - 1].row;
    page.skipped = skipped.filter((s) => s.row > after && s.row <= upTo);
    page.nextOffset = to < total ? to : null;
    return ok(page);
  };

  readonly readResult = async (jobId: string, caller: Caller, offset = 0): Promise<Outcome<JobResultPage>> => {
    await this.ready;
    const gated = await this.seen.admit(jobId, caller);
    if (!gated.ok) return gated;
    const head = await this.#finished(gated.value);
    if (!head.ok) return head;
    const { occasion, budgetPerPerson, summary, skipped, total, chunkSize, currency = "USD" } = head.value;
    const page: JobResultPage = {
      jobId,
      occasion,
      budgetPerPerson,
      currency,
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
    const { people, after } = await this.#readBounded(jobId, offset, chunkSize);
    const end = offset + people.length;
    const upTo = end >= total ? Infinity : (people.at(-1)?.row ?? Infinity);
    page.people = people;
    page.skipped = skipped.filter((s) => s.row > after && s.row <= upTo);
    page.next = end < total && people.length > 0 ? URI.jobResultPage(jobId, end) : null;
    return ok(page);
  };

  /** The head of a completed job's result, or the error that says why there is none. */
  async #finished(job: StoredJob): Promise<Outcome<ResultHead>> {
    const { jobId, status } = job;
    if (status !== "completed") {
      const { percentage } = await foldOf(this.store, job);
      return notFinished<ResultHead>(jobId, status, percentage);
    }
    const head = await this.store.readResultHead(jobId);
    return head
      ? ok(head)
      : fail<ResultHead>("internal", `The result of job ${jobId} is missing.`, "Run the analysis again.");
  }

  /**
   * The people from `offset` on, up to `RESULT_PAGE_PEOPLE` and `RESULT_PAGE_BYTES` of JSON (at
   * least one, however large), and the row of the person before `offset` (-Infinity for none).
   */
  async #readBounded(jobId: string, offset: number, chunkSize: number) {
    const people: PersonResult[] = [];
    let after = -Infinity;
    let bytes = 0;
    for (let chunk = Math.floor(Math.max(0, offset - 1) / chunkSize); ; chunk++) {
      const decoded = await this.#readPeople(jobId, chunk, chunk + 1);
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
  async #composedSoFar(job: StoredJob, offset: number, limit: number): Promise<GetJobResultResult> {
    const fold = await foldOf(this.store, job);
    const total = fold.stage === "compose" && fold.processed !== null ? fold.processed : 0;
    const first = Math.floor(offset / CHUNK_SIZE);
    const to = Math.min(total, offset + limit);
    const composed = to > offset ? await this.#readPeople(job.jobId, first, Math.ceil(to / CHUNK_SIZE), true) : [];
    const people = composed.slice(offset - first * CHUNK_SIZE, to - first * CHUNK_SIZE);
    const end = offset + people.length;
    return {
      jobId: job.jobId,
      // the currency job.created said, for a view to write the budgets and prices composed so far
      currency: fold.currency ?? "USD",
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

  /** People of chunks `from` to `to`: of the committed result, or (`composed`) of the one still being composed. */
  async #readPeople(jobId: string, from: number, to: number, composed = false): Promise<PersonResult[]> {
    const { store } = this;
    const chunks = await (composed
      ? store.readComposedChunks(jobId, from, to)
      : store.readResultChunks(jobId, from, to));
    return chunks.flatMap(decodeChunk);
  }
}
