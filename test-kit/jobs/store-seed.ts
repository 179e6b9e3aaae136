/**
 * Writing jobs straight into a store, for the store suites: a job with a small CSV as its input,
 * events appended after its job.created, and a result put chunk by chunk and committed; and how a
 * suite is told to look into a store (`ChunksKept`).
 */
import type { JobEventType } from "../../shared/job-events.js";
import { applyJobEvents, createJobFold } from "../../shared/job-reducer.js";
import { jobEvent } from "../job-events.js";
import type { JobStore, NewJob, ResultHead } from "../../server/jobs/store.js";

/** Looks into a store: how many result chunks it keeps for a job, committed or not. */
export type ChunksKept = (store: JobStore, jobId: string) => Promise<number>;

export const head = (total: number, chunkSize: number): ResultHead => ({
  occasion: "holiday",
  budgetPerPerson: 40,
  summary: "done",
  total,
  chunkSize,
  skipped: [{ row: 3, reason: "it has no name" }],
});

/** The input every seeded job has. */
export const SEED_INPUT = { occasion: "holiday", budgetPerPerson: 40, csv: "name,department,interests\nA,B,C\n" };

export const job = (jobId: string, createdAt = 1_000, subject = "alice"): NewJob => ({
  jobId,
  owner: { subject, sessionId: "s1" },
  createdAt,
  input: SEED_INPUT,
});

/** A result: its head and the chunks to put before it. */
type Result = { head: ResultHead; chunks: string[] };

/**
 * Creates a job (of `subject`, alice by default) and appends `types` after its job.created,
 * putting `result`'s chunks first; returns its events.
 */
export async function seed(
  store: JobStore,
  jobId: string,
  types: JobEventType[] = [],
  createdAt?: number,
  result?: Result,
  subject?: string,
) {
  const created = jobEvent(jobId, 1, "job.created");
  await store.create(job(jobId, createdAt, subject), [created], applyJobEvents(createJobFold(jobId), [created]));
  const rest = types.map((t, i) => jobEvent(jobId, i + 2, t));
  if (result) {
    const [first, ...later] = rest;
    await store.append(jobId, [first], applyJobEvents(createJobFold(jobId), [created, first])); // running from here
    for (const [i, body] of result.chunks.entries()) await store.putResultChunk(jobId, i, body);
    await store.append(jobId, later, applyJobEvents(createJobFold(jobId), [created, ...rest]), result.head);
  } else if (rest.length > 0) await store.append(jobId, rest, applyJobEvents(createJobFold(jobId), [created, ...rest]));
  return [created, ...rest];
}

/** Appends events of `types` to a seeded job, with `head` if given. */
export async function extend(store: JobStore, jobId: string, types: JobEventType[], resultHead?: ResultHead) {
  const before = await store.readEvents(jobId, 0, 1000);
  const more = types.map((t, i) => jobEvent(jobId, before.length + 1 + i, t));
  await store.append(jobId, more, applyJobEvents(createJobFold(jobId), [...before, ...more]), resultHead);
}
