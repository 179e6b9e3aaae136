/**
 * The in-memory job store: for tests and single-process use without a disk. Same rules as the
 * durable stores (gapless seqs checked on append, results written with their final event), so the
 * shared service suite runs against it unchanged. Stored values are immutable by convention.
 */
import type { JobEvent } from "../../../shared/job-events.js";
import { isTerminalStatus, type JobView } from "../../../shared/job-reducer.js";
import { StoreConflictError, checkContinues, type JobStore, type NewJob, type StoredJob, type StoredResult } from "../store.js";

type Entry = { job: NewJob; view: JobView; events: JobEvent[]; result?: StoredResult };

/** Creates an empty store that lives as long as the process. */
export function createMemoryStore(): JobStore {
  const jobs = new Map<string, Entry>();
  const stored = (e: Entry): StoredJob => ({ jobId: e.job.jobId, owner: e.job.owner, createdAt: e.job.createdAt, view: e.view });

  return {
    async create(job, events, view) {
      if (jobs.has(job.jobId)) throw new StoreConflictError(`job ${job.jobId} already exists`);
      checkContinues(0, events);
      jobs.set(job.jobId, { job, view, events: [...events] });
    },
    async getJob(jobId) {
      const e = jobs.get(jobId);
      return e && stored(e);
    },
    async append(jobId, events, view, result) {
      const e = jobs.get(jobId);
      if (!e) throw new StoreConflictError(`no job ${jobId}`);
      checkContinues(e.events.length, events);
      e.events.push(...events);
      e.view = view;
      if (result) e.result = result;
    },
    async readEvents(jobId, afterSeq, limit) {
      // seqs are gapless from 1, so seq n sits at index n - 1
      return jobs.get(jobId)?.events.slice(afterSeq, afterSeq + limit) ?? [];
    },
    async readResultHead(jobId) {
      return jobs.get(jobId)?.result?.head;
    },
    async readResultChunks(jobId, from, to) {
      return jobs.get(jobId)?.result?.chunks.slice(from, to) ?? [];
    },
    async listUnfinished() {
      return [...jobs.values()]
        .filter((e) => !isTerminalStatus(e.view.status))
        .sort((a, b) => a.job.createdAt - b.job.createdAt)
        .map(stored);
    },
    async expire(createdBefore) {
      const gone: string[] = [];
      for (const [id, e] of jobs) {
        if (e.job.createdAt < createdBefore && isTerminalStatus(e.view.status)) gone.push(id);
      }
      for (const id of gone) jobs.delete(id);
      return gone;
    },
    async close() {
      jobs.clear();
    },
  };
}
