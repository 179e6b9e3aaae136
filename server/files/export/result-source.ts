/**
 * A job's result as the source of a file, through the access gate: the people of a finished job or
 * those a running one composed so far, read a stored chunk at a time as the file is written.
 */
import { setImmediate as turn } from "node:timers/promises";
import type { SkippedRow } from "../../../shared/files.js";
import type { Currency } from "../../../shared/money.js";
import type { Language } from "../../../shared/stage-words.js";
import type { PersonResult } from "../../../shared/tools.js";
import type { Gate } from "../../jobs/access.js";
import type { Caller } from "../../jobs/caller.js";
import { ok, type Outcome } from "../../outcomes.js";
import { decodeChunk } from "../../jobs/result-codec.js";
import { headOf } from "../../jobs/reads.js";
import { localeOf } from "../../jobs/runner/texts.js";
import { foldOf, type JobStore } from "../../jobs/store.js";

export type ResultSource = {
  jobId: string;
  /** To name files by. */
  title: string;
  createdAt: number;
  language: Language;
  currency: Currency;
  /** True for a running job: the people composed when the source was opened. */
  partial: boolean;
  /** How many people `people()` yields. */
  total: number;
  /** None yet while the job runs. */
  skipped: SkippedRow[];
  /** The people in row order, a stored chunk at a time. */
  people(): AsyncGenerator<PersonResult[]>;
};

export type OpenResult = (jobId: string, caller: Caller) => Promise<Outcome<ResultSource>>;

export function createResultSources(store: JobStore, gate: Gate): OpenResult {
  return async (jobId, caller) => {
    const gated = await gate(jobId, caller);
    if (!gated.ok) return gated;
    const job = gated.value;
    const { partial, head } = await headOf(store, job);
    if (!head.ok) return head;
    const { total, chunkSize, skipped, currency = "USD" } = head.value;
    // a running job still has its input, which says its language
    const locale = partial ? (await store.readInput(jobId))?.locale : head.value.locale;
    const title = (await foldOf(store, job)).title ?? jobId;
    const people = () => chunks(jobId, total, chunkSize, partial);
    const language = localeOf(locale);
    return ok({ jobId, title, createdAt: job.createdAt, language, currency, partial, total, skipped, people });
  };

  async function* chunks(jobId: string, total: number, chunkSize: number, composing: boolean) {
    let left = total;
    for (let index = 0; left > 0; index++) {
      let [body] = composing ? await store.readChunks(jobId, index, index + 1, true) : [];
      // a running job that ended meanwhile has made the chunks it composed its result, unchanged
      body ??= (await store.readChunks(jobId, index, index + 1))[0];
      if (body === undefined)
        throw new Error(`job ${jobId} was canceled or deleted while its file was written; export it again`);
      const people = decodeChunk(body).slice(0, left);
      if (people.length === 0) throw new Error(`chunk ${index} of job ${jobId}'s result holds nobody`);
      left -= people.length;
      yield people;
      // a store that answers within the call (memory, SQLite) would otherwise never let the event loop turn
      await turn();
    }
  }
}
