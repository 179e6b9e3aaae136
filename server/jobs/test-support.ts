/**
 * What the job-system tests share: reading a job's whole history through the service, checking
 * that it keeps the event contract, and waiting for a job to end. Data lives in test-fixtures.ts.
 */
import { expect } from "vitest";
import { JobEventSchema, isTerminalEvent, type JobEvent } from "../../shared/job-events.js";
import { foldJobEvents } from "../../shared/job-reducer.js";
import type { JobService } from "./job-service.js";
import { ALICE } from "./test-fixtures.js";

export { ALICE, BOB, makeCsv, testMatch } from "./test-fixtures.js";

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

/** Asserts the contract on a whole history and returns what a test usually checks next. */
export function expectValidHistory(events: JobEvent[]) {
  for (const e of events) expect(JobEventSchema.safeParse(e).success).toBe(true);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
  expect(events[0].type).toBe("job.created");
  const terminal = events.filter(isTerminalEvent);
  expect(terminal).toHaveLength(1);
  expect(events[events.length - 1]).toBe(terminal[0]);
  const progress = events.flatMap((e) => (e.type === "job.progress" ? [e.payload] : []));
  for (let i = 1; i < progress.length; i++)
    expect(progress[i].percentage).toBeGreaterThanOrEqual(progress[i - 1].percentage);
  const stages = progress.map((p) => p.stage).filter((s, i, all) => i === 0 || all[i - 1] !== s);
  return { terminal: terminal[0], progress, stages };
}

/** Waits for the job to end (through the service's own wait) and returns the fold of its events. */
export async function settle(service: JobService, jobId: string, caller = ALICE) {
  const r = await service.waitFor({ jobId, timeoutMs: 60_000 }, caller, () => {});
  if (!r.ok) throw new Error(r.error.message);
  return foldJobEvents(jobId, await history(service, jobId, caller));
}
