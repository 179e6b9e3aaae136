/**
 * The result of a job for its readers: pages of a completed job's people with the rows skipped
 * between them, the people a running job has composed so far, and the result resource's parts.
 */
import type { z } from "zod";
import type { SkippedRow } from "../../shared/files.js";
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

/**
 * The skipped rows a page from `offset` carries: those after the row of the person before it
 * (`after`) up to its last person, or to the end on the last page; all of them on an empty result.
 */
function skippedOn(skipped: SkippedRow[], offset: number, total: number, after: number, people: PersonResult[]) {
  if (offset >= total) return offset === 0 ? skipped : [];
  const upTo = offset + people.length >= total ? Infinity : (people.at(-1)?.row ?? Infinity);
  return skipped.filter((s) => s.row > after && s.row <= upTo);
}

/** What a page of `get_job_result` takes from its result's head. */
type PageHead = Pick<ResultHead, "total" | "chunkSize" | "skipped" | "summary" | "currency" | "figures">;

export class ResultReads {
  constructor(
    private readonly store: JobStore,
    private readonly seen: SeenJobs,
  ) {}

  readonly getResult = async (
    { jobId, offset, limit }: z.output<typeof GetJobResultInput>,
    caller: Caller,
  ): Promise<Outcome<GetJobResultResult>> => {
    const gated = await this.seen.admit(jobId, caller);
    if (!gated.ok) return gated;
    const partial = gated.value.status === "running";
    const head: Outcome<PageHead> = partial ? await this.#soFar(gated.value) : await this.#finished(gated.value);
    if (!head.ok) return head;
    const { total, chunkSize, skipped, summary, figures, currency = "USD" } = head.value;
    const to = Math.min(total, offset + limit);
    // from the person before the page: a page carries the skipped rows since the previous one
    const first = Math.floor(Math.max(0, offset - 1) / chunkSize);
    const read = to > offset ? await this.#readPeople(jobId, first, Math.ceil(to / chunkSize), partial) : [];
    const base = first * chunkSize;
    const people = read.slice(offset - base, to - base);
    const after = read[offset - 1 - base]?.row ?? -Infinity;
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
  };

  readonly readResult = async (jobId: string, caller: Caller, offset = 0): Promise<Outcome<JobResultPage>> => {
    const gated = await this.seen.admit(jobId, caller);
    if (!gated.ok) return gated;
    const head = await this.#finished(gated.value);
    if (!head.ok) return head;
    const { occasion, budgetPerPerson, summary, skipped, total, chunkSize, currency = "USD" } = head.value;
    const { people, after } =
      offset < total ? await this.#readBounded(jobId, offset, chunkSize) : { people: [], after: -Infinity };
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

  /** The people from `offset` on, within the page's bounds (at least one), and the row of the person before. */
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

  /** What a running job's result holds so far: the people composed (none before that stage), nothing else yet. */
  async #soFar(job: StoredJob): Promise<Outcome<PageHead>> {
    const fold = await foldOf(this.store, job);
    const total = fold.stage === "compose" && fold.processed !== null ? fold.processed : 0;
    return ok({ total, chunkSize: CHUNK_SIZE, skipped: [], summary: "", currency: fold.currency ?? "USD" });
  }

  /** People of chunks `from` to `to`, of the committed result or (`composed`) the one being composed. */
  async #readPeople(jobId: string, from: number, to: number, composed = false): Promise<PersonResult[]> {
    return (await this.store.readChunks(jobId, from, to, composed)).flatMap(decodeChunk);
  }
}
