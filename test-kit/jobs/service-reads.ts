/**
 * What the job-system tests share: reading a job's whole history through the service and waiting
 * for a job to end. Data lives in fixtures.ts; the history check in test-kit/job-history.ts.
 */
import type { SkippedRow } from "../../shared/files.js";
import type { JobEvent } from "../../shared/job-events.js";
import type { JobResultPage, PersonResult, StartBulkArgs } from "../../shared/tools.js";
import { foldJobEvents } from "../../shared/job-reducer.js";
import {
  createJobService,
  type JobService,
  type JobServiceOptions,
  type StartOptions,
} from "../../server/jobs/job-service.js";
import { createMemoryStore } from "../../server/jobs/stores/memory.js";
import { ALICE, testMatch } from "./fixtures.js";

export { ALICE, BOB, testMatch } from "./fixtures.js";

/** Every event of a job, read back through the service (and so through the store). */
export async function history(service: JobService, jobId: string, caller = ALICE): Promise<JobEvent[]> {
  const events: JobEvent[] = [];
  for (let afterSeq = 0; ;) {
    const r = await service.getEvents({ jobId, afterSeq, waitMs: 0, limit: 1000 }, caller);
    if (!r.ok) throw new Error(r.error.message);
    events.push(...r.value.events);
    if (r.value.events.length === 0) return events;
    afterSeq = r.value.nextSeq;
  }
}

/** Waits for the job to end (through the service's own wait) and returns the fold of its events. */
export async function settle(service: JobService, jobId: string, caller = ALICE) {
  const r = await service.waitFor({ jobId, timeoutMs: 60_000 }, caller, () => {});
  if (!r.ok) throw new Error(r.error.message);
  return foldJobEvents(jobId, await history(service, jobId, caller));
}

/** Every person of a finished job's result, read back page by page through the service. */
export async function collectPeople(service: JobService, jobId: string, caller = ALICE): Promise<PersonResult[]> {
  const people: PersonResult[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = await service.getResult({ jobId, offset, limit: 500 }, caller);
    if (!page.ok) throw new Error(page.error.message);
    people.push(...page.value.people);
    offset = page.value.nextOffset;
  }
  return people;
}

/**
 * Starts `input` (a staff file's canonical CSV, say) on a fresh in-memory service, waits for its end
 * and reads every page of its result: the head of the last page, every person and every skipped row.
 */
export async function runToResult(
  input: Omit<StartBulkArgs, "occasion" | "budgetPerPerson"> & Partial<StartBulkArgs>,
  { match = testMatch, start = {} }: { match?: JobServiceOptions["match"]; start?: StartOptions } = {},
): Promise<{ head: JobResultPage; people: PersonResult[]; skipped: SkippedRow[] }> {
  const service = createJobService({ store: createMemoryStore(), match });
  try {
    const started = await service.start({ occasion: "holiday", budgetPerPerson: 25, ...input }, ALICE, start);
    if (!started.ok) throw new Error(started.error.message);
    expect((await settle(service, started.value.jobId)).status).toBe("completed");
    const people: PersonResult[] = [];
    const skipped: SkippedRow[] = [];
    for (let offset = 0; ;) {
      const page = await service.readResult(started.value.jobId, ALICE, offset);
      if (!page.ok) throw new Error(page.error.message);
      people.push(...page.value.people);
      skipped.push(...page.value.skipped);
      if (page.value.next === null) return { head: page.value, people, skipped };
      offset += page.value.people.length;
    }
  } finally {
    await service.close();
  }
}
