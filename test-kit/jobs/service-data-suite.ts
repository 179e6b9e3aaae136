/**
 * The job service's care for a subject's data and share, as part of the service suite every store
 * runs: the input kept only while the job runs, deletion on request (canceling a running job
 * first, refusing other subjects), and the quotas on jobs at once, starts an hour and bytes kept.
 */
import { afterEach, describe, expect, it } from "vitest";
import { employeeCsv } from "../employee-csv.js";
import { pauseAtPace } from "../../server/dev-pace.js";
import { createJobService, type JobService, type JobServiceOptions } from "../../server/jobs/job-service.js";
import type { JobStore } from "../../server/jobs/store.js";
import { ALICE, BOB, settle, testMatch } from "./service-reads.js";

const START = { occasion: "holiday", budgetPerPerson: 50 };
/** A job that runs for seconds when paced, long after a test's next steps. */
const slow = { ...START, csv: employeeCsv(30_000) };
const PACE = { runOptions: { paceMs: 20 } };

export function describeServiceData(name: string, makeStore: () => JobStore): void {
  describe(`job data and quotas on the ${name} store`, () => {
    const open: JobService[] = [];
    const make = (options: Partial<JobServiceOptions> = {}) => {
      const service = createJobService({ store: makeStore(), match: testMatch, beforeSlice: pauseAtPace, ...options });
      open.push(service);
      return service;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    });
    const jobIdOf = (started: Awaited<ReturnType<JobService["start"]>>) => {
      if (!started.ok) throw new Error(started.error.message);
      return started.value.jobId;
    };

    it("keeps the employee list only while the job runs", async () => {
      const store = makeStore();
      const service = make({ store });
      const jobId = jobIdOf(await service.start({ ...START, csv: employeeCsv(3) }, ALICE));
      expect(await store.readInput(jobId)).toMatchObject({ csv: employeeCsv(3) });
      await settle(service, jobId);
      expect(await store.readInput(jobId)).toBeUndefined();
      // and the result, which never needed it again, is whole
      expect(await service.getResult({ jobId, offset: 0, limit: 10 }, ALICE)).toMatchObject({
        ok: true,
        value: { total: 3 },
      });
    });

    it("deletes a finished job with all its data, for its owner only", async () => {
      const store = makeStore();
      const service = make({ store });
      const jobId = jobIdOf(await service.start({ ...START, csv: employeeCsv(20) }, ALICE));
      await settle(service, jobId);
      expect(await service.delete({ jobId }, BOB)).toMatchObject({ ok: false, error: { code: "unknown_job" } });
      expect(await store.getJob(jobId)).toBeDefined();
      expect(await service.delete({ jobId }, ALICE)).toEqual({ ok: true, value: { jobId, canceled: false } });
      expect(await store.getJob(jobId)).toBeUndefined();
      expect(await store.readEvents(jobId, 0, 10)).toEqual([]);
      expect(await store.readChunks(jobId, 0, 10)).toEqual([]);
      expect(await service.getResult({ jobId, offset: 0, limit: 10 }, ALICE)).toMatchObject({
        ok: false,
        error: { code: "unknown_job" },
      });
      expect(await service.delete({ jobId }, ALICE)).toMatchObject({ ok: false, error: { code: "unknown_job" } });
    });

    it("cancels a running job before deleting it, and a wait on it ends", async () => {
      const store = makeStore();
      const service = make({ store });
      const jobId = jobIdOf(await service.start(slow, ALICE, PACE));
      const waiting = service.waitFor({ jobId, timeoutMs: 30_000 }, ALICE, () => {});
      expect(await service.delete({ jobId }, ALICE)).toEqual({ ok: true, value: { jobId, canceled: true } });
      // the wait ends on the cancel, or finds the job gone
      const waited = await waiting;
      expect(waited.ok ? waited.value.status : waited.error.code).toMatch(/^(canceled|unknown_job)$/);
      expect(await store.getJob(jobId)).toBeUndefined();
      expect(await store.listUnfinished()).toEqual([]);
      expect(await store.usage(ALICE.subject, 0)).toMatchObject({ unfinished: 0, bytes: 0 });
    });

    it("refuses a start beyond the jobs a subject may have waiting or running", async () => {
      const service = make({ limits: { maxUnfinishedPerSubject: 2, maxConcurrentJobs: 1 } });
      const first = jobIdOf(await service.start(slow, ALICE, PACE));
      jobIdOf(await service.start(slow, ALICE, PACE));
      const third = await service.start(slow, ALICE, PACE);
      expect(third).toMatchObject({ ok: false, error: { code: "quota_exceeded" } });
      if (third.ok) return;
      expect(third.error.message).toBe("You already have 2 analyses waiting or running; the limit is 2 at a time.");
      expect(third.error.hint).toContain("cancel_job");
      // another subject has a share of its own
      jobIdOf(await service.start({ ...START, csv: employeeCsv(3) }, BOB));
      await service.cancel({ jobId: first }, ALICE);
      jobIdOf(await service.start({ ...START, csv: employeeCsv(3) }, ALICE));
    });

    it("lets one of ten starts at the same instant take the last place, and tells the others why not", async () => {
      const service = make({ limits: { maxUnfinishedPerSubject: 1, maxConcurrentJobs: 1 } });
      const tries = await Promise.all(Array.from({ length: 10 }, () => service.start(slow, ALICE, PACE)));
      expect(tries.filter((t) => t.ok)).toHaveLength(1);
      for (const refused of tries.filter((t) => !t.ok)) {
        expect(refused).toMatchObject({
          ok: false,
          error: {
            code: "quota_exceeded",
            message: "You already have 1 analyses waiting or running; the limit is 1 at a time.",
          },
        });
      }
    });

    it("limits the starts of a subject in a rolling hour, deleted jobs included, and says when to retry", async () => {
      let clock = Date.parse("2026-03-01T12:00:00Z");
      const service = make({ now: () => clock, limits: { maxStartsPerHour: 2 } });
      const small = { ...START, csv: employeeCsv(3) };
      const first = jobIdOf(await service.start(small, ALICE));
      clock += 10 * 60_000;
      await settle(service, jobIdOf(await service.start(small, ALICE)));
      await settle(service, first);
      expect((await service.delete({ jobId: first }, ALICE)).ok).toBe(true);
      const refused = await service.start(small, ALICE);
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: "rate_limited",
          message: "You started 2 analyses in the last hour; the limit is 2 an hour.",
          hint: "Try again in 50 minutes.",
          retryable: true,
        },
      });
      expect((await service.start(small, BOB)).ok).toBe(true);
      clock += 50 * 60_000;
      expect((await service.start(small, ALICE)).ok).toBe(true);
    });

    it("refuses a start that would keep more bytes than the subject may, until jobs are deleted", async () => {
      const bytes = Buffer.byteLength(slow.csv);
      const service = make({ limits: { maxStoredBytesPerSubject: Math.round(bytes * 1.5) } });
      const first = jobIdOf(await service.start(slow, ALICE, PACE));
      const refused = await service.start(slow, ALICE, PACE);
      expect(refused).toMatchObject({ ok: false, error: { code: "quota_exceeded" } });
      if (refused.ok) return;
      expect(refused.error.message).toMatch(
        /^Your jobs keep [\d.]+ MB of employee lists and results, and this list adds/,
      );
      expect(refused.error.hint).toContain("delete_job");
      expect((await service.delete({ jobId: first }, ALICE)).ok).toBe(true);
      expect((await service.start(slow, ALICE, PACE)).ok).toBe(true);
    });
  });
}
