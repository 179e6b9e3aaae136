/**
 * What the job-system tests share: reading a job's whole history through the service and waiting
 * for a job to end. Data lives in fixtures.ts; the history check in test-kit/job-history.ts.
 */
import type { JobEvent } from "../../../shared/job-events.js";
import type { PersonResult } from "../../../shared/tools.js";
import { foldJobEvents } from "../../../shared/job-reducer.js";
import type { JobService } from "../job-service.js";
import { ALICE } from "./fixtures.js";

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
