/**
 * The JobStore contract as one suite that every store runs: atomic creation and appends with
 * gapless seqs, reads after a seq, results in chunks, unfinished jobs for recovery, and expiry.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { JobEvent } from "../../shared/job-events.js";
import { applyJobEvents, createJobView } from "../../shared/job-reducer.js";
import { StoreConflictError, type JobStore, type NewJob, type StoredResult } from "./store.js";

const T = "2026-01-01T00:00:00.000Z";
const ev = (jobId: string, seq: number, type: "job.created" | "job.started" | "job.progress" | "job.completed"): JobEvent => {
  const envelope = { eventId: `${jobId}:${seq}`, jobId, seq, timestamp: T };
  switch (type) {
    case "job.created":
      return { ...envelope, type, payload: { kind: "bulk", title: "t", stages: [{ id: "parse", label: "Parse" }] } };
    case "job.started":
      return { ...envelope, type, payload: {} };
    case "job.progress":
      return { ...envelope, type, payload: { percentage: seq, stage: "parse", processed: seq, total: 100 } };
    case "job.completed":
      return { ...envelope, type, payload: { summary: "done", resultResourceId: `gifts://jobs/${jobId}/result`, resultCount: 2 } };
  }
};
const job = (jobId: string, createdAt = 1_000): NewJob => ({
  jobId, owner: { subject: "alice", sessionId: "s1" }, createdAt,
  input: { occasion: "holiday", budgetPerPerson: 40, csv: "name,department,interests\nA,B,C\n" },
});

/** Creates a job and appends `types` after its job.created; returns its events. */
async function seed(store: JobStore, jobId: string, types: Parameters<typeof ev>[2][] = [], createdAt?: number, result?: StoredResult) {
  const created = ev(jobId, 1, "job.created");
  await store.create(job(jobId, createdAt), [created], applyJobEvents(createJobView(jobId), [created]));
  const rest = types.map((t, i) => ev(jobId, i + 2, t));
  if (rest.length > 0) await store.append(jobId, rest, applyJobEvents(createJobView(jobId), [created, ...rest]), result);
  return [created, ...rest];
}

export function describeJobStore(name: string, makeStore: () => JobStore): void {
  describe(`the ${name} job store`, () => {
    let store: JobStore;
    afterEach(async () => store?.close());

    it("keeps a job with its owner, creation time and view", async () => {
      store = makeStore();
      await seed(store, "j1", ["job.started"], 1234);
      const stored = await store.getJob("j1");
      expect(stored).toMatchObject({ jobId: "j1", owner: { subject: "alice", sessionId: "s1" }, createdAt: 1234 });
      expect(stored?.view).toMatchObject({ jobId: "j1", status: "running", lastSeq: 2 });
      expect(await store.getJob("nope")).toBeUndefined();
    });

    it("reads events after a seq, in order, up to a limit", async () => {
      store = makeStore();
      const events = await seed(store, "j1", ["job.started", "job.progress", "job.progress", "job.progress"]);
      expect(await store.readEvents("j1", 0, 100)).toEqual(events);
      expect(await store.readEvents("j1", 2, 2)).toEqual(events.slice(2, 4));
      expect(await store.readEvents("j1", 5, 10)).toEqual([]);
      expect(await store.readEvents("nope", 0, 10)).toEqual([]);
    });

    it("refuses events that do not continue the log, and writes none of them", async () => {
      store = makeStore();
      await seed(store, "j1", ["job.started"]);
      const view = (await store.getJob("j1"))!.view;
      await expect(store.append("j1", [ev("j1", 2, "job.progress")], view)).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.append("j1", [ev("j1", 3, "job.progress"), ev("j1", 5, "job.progress")], view)).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.append("nope", [ev("nope", 1, "job.progress")], view)).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.create(job("j1"), [ev("j1", 1, "job.created")], view)).rejects.toBeInstanceOf(StoreConflictError);
      expect((await store.readEvents("j1", 0, 10)).map((e) => e.seq)).toEqual([1, 2]);
      expect((await store.getJob("j1"))!.view.lastSeq).toBe(2);
    });

    it("stores the result with the final event, in chunks", async () => {
      store = makeStore();
      const result: StoredResult = {
        head: { occasion: "holiday", budgetPerPerson: 40, summary: "done", total: 3, chunkSize: 2, skipped: [{ row: 3, reason: "it has no name" }] },
        chunks: ["chunk-0", "chunk-1"],
      };
      await seed(store, "j1", ["job.started", "job.completed"], undefined, result);
      expect(await store.readResultHead("j1")).toEqual(result.head);
      expect(await store.readResultChunks("j1", 0, 2)).toEqual(["chunk-0", "chunk-1"]);
      expect(await store.readResultChunks("j1", 1, 5)).toEqual(["chunk-1"]);
      expect(await store.readResultHead("nope")).toBeUndefined();
    });

    it("lists unfinished jobs, oldest first", async () => {
      store = makeStore();
      await seed(store, "late", ["job.started"], 3_000);
      await seed(store, "done", ["job.started", "job.completed"], 1_000);
      await seed(store, "early", [], 2_000);
      expect((await store.listUnfinished()).map((j) => [j.jobId, j.view.status])).toEqual([["early", "pending"], ["late", "running"]]);
    });

    it("expires finished jobs created before a time, with everything they own", async () => {
      store = makeStore();
      const result: StoredResult = { head: { occasion: "o", budgetPerPerson: 1, summary: "s", total: 0, chunkSize: 1, skipped: [] }, chunks: [] };
      await seed(store, "old", ["job.started", "job.completed"], 1_000, result);
      await seed(store, "old-running", ["job.started"], 1_000);
      await seed(store, "new", ["job.started", "job.completed"], 5_000);
      expect(await store.expire(2_000)).toEqual(["old"]);
      expect(await store.getJob("old")).toBeUndefined();
      expect(await store.readEvents("old", 0, 10)).toEqual([]);
      expect(await store.readResultHead("old")).toBeUndefined();
      expect(await store.getJob("old-running")).toBeDefined();
      expect(await store.getJob("new")).toBeDefined();
      expect(await store.expire(2_000)).toEqual([]);
    });
  });
}
