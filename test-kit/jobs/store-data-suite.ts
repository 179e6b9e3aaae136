/**
 * What a store keeps of a subject's data, as part of the store suite: the input only while the job
 * runs, a job deleted on request with all it owns, nothing left after expiry, and the per-subject
 * usage the quotas read (unfinished jobs, recent creations, bytes of inputs and results).
 */
import { afterEach, describe, expect, it } from "vitest";
import { applyJobEvents, createJobFold } from "../../shared/job-reducer.js";
import { jobEvent } from "../job-events.js";
import { SEED_INPUT, extend, head, job, seed, type ChunksKept } from "./store-seed.js";
import { QuotaExceededError, inputBytes, type CreateQuota, type JobStore } from "../../server/jobs/store.js";

export function describeStoreData(name: string, makeStore: () => JobStore, chunksKept?: ChunksKept): void {
  describe(`the data the ${name} job store keeps`, () => {
    let store: JobStore;
    afterEach(async () => store?.close());

    /** Everything a reader could get of `jobId`, empty when the job is gone. */
    const everything = async (jobId: string) => ({
      job: await store.getJob(jobId),
      events: await store.readEvents(jobId, 0, 100),
      head: await store.readResultHead(jobId),
      chunks: await store.readChunks(jobId, 0, 100),
      composed: await store.readChunks(jobId, 0, 100, true),
      input: await store.readInput(jobId),
      kept: chunksKept ? await chunksKept(store, jobId) : 0,
    });
    const nothing = {
      job: undefined,
      events: [],
      head: undefined,
      chunks: [],
      composed: [],
      input: undefined,
      kept: 0,
    };

    it("keeps the input while the job runs, and drops it when the job ends, whichever way", async () => {
      store = makeStore();
      await seed(store, "j1", ["job.started"]);
      expect(await store.readInput("j1")).toEqual(SEED_INPUT);
      await extend(store, "j1", ["job.progress"]);
      expect(await store.readInput("j1")).toEqual(SEED_INPUT);
      await extend(store, "j1", ["job.failed"]);
      expect(await store.readInput("j1")).toBeUndefined();
      await seed(store, "done", ["job.started", "job.completed"], undefined, { head: head(1, 1), chunks: ["a"] });
      expect(await store.readInput("done")).toBeUndefined();
      expect(await store.readInput("nope")).toBeUndefined();
    });

    it("deletes a job on request with everything it owns, running or not", async () => {
      store = makeStore();
      await seed(store, "done", ["job.started", "job.completed"], undefined, { head: head(2, 1), chunks: ["a", "b"] });
      await seed(store, "running", ["job.started"]);
      await store.putResultChunk("running", 0, "c");
      await seed(store, "other", ["job.started"]);
      expect(await store.delete("done")).toBe(true);
      expect(await store.delete("running")).toBe(true);
      expect(await everything("done")).toEqual(nothing);
      expect(await everything("running")).toEqual(nothing);
      expect(await store.listUnfinished()).toMatchObject([{ jobId: "other" }]);
      expect(await store.delete("done")).toBe(false);
      expect(await store.expire(Number.POSITIVE_INFINITY)).toEqual([]);
    });

    it("leaves nothing of an expired job: events, result chunks, input", async () => {
      store = makeStore();
      await seed(store, "old", ["job.started", "job.completed"], 1_000, { head: head(2, 1), chunks: ["a", "b"] });
      await seed(store, "old-failed", ["job.started"], 1_000);
      await store.putResultChunk("old-failed", 0, "x");
      await extend(store, "old-failed", ["job.failed"]);
      expect(await store.expire(2_000)).toEqual(expect.arrayContaining(["old", "old-failed"]));
      expect(await everything("old")).toEqual(nothing);
      expect(await everything("old-failed")).toEqual(nothing);
    });
  });
  describeUsage(name, makeStore);
}

/** The per-subject usage the quotas read, and the quota checked as a job is created. */
function describeUsage(name: string, makeStore: () => JobStore): void {
  describe(`the data the ${name} job store keeps`, () => {
    let store: JobStore;
    afterEach(async () => store?.close());

    it("counts each subject's unfinished jobs, recent creations and stored bytes", async () => {
      store = makeStore();
      const input = inputBytes(SEED_INPUT);
      expect(await store.usage("alice", 0)).toEqual({ unfinished: 0, startedSince: 0, bytes: 0 });
      await seed(store, "a1", [], 1_000);
      await seed(store, "a2", ["job.started"], 2_000);
      await seed(store, "b1", ["job.started"], 2_500, undefined, "bob");
      expect(await store.usage("alice", 0)).toEqual({
        unfinished: 2,
        startedSince: 2,
        firstStartSince: 1_000,
        bytes: 2 * input,
      });
      expect(await store.usage("alice", 1_500)).toMatchObject({ startedSince: 1, firstStartSince: 2_000 });
      await store.putResultChunk("a2", 0, "héllo"); // 6 bytes in UTF-8
      expect((await store.usage("alice", 0)).bytes).toBe(2 * input + 6);
      // a2 completes with its result: its input goes, its chunk and head stay
      const done = head(1, 1);
      await extend(store, "a2", ["job.completed"], done);
      const resultBytes = 6 + Buffer.byteLength(JSON.stringify(done));
      expect(await store.usage("alice", 0)).toMatchObject({ unfinished: 1, bytes: input + resultBytes });
      // a1 fails: its input goes, and it had no result
      await extend(store, "a1", ["job.started", "job.failed"]);
      expect(await store.usage("alice", 0)).toMatchObject({ unfinished: 0, bytes: resultBytes });
      expect(await store.delete("a2")).toBe(true);
      // deleting frees the bytes, but a creation still counts towards the rate of starts
      expect(await store.usage("alice", 0)).toMatchObject({ unfinished: 0, bytes: 0, startedSince: 2 });
      expect(await store.usage("bob", 0)).toEqual({
        unfinished: 1,
        startedSince: 1,
        firstStartSince: 2_500,
        bytes: input,
      });
    });

    it("creates a job only where its owner has room under the quota given, writing nothing otherwise", async () => {
      store = makeStore();
      const input = inputBytes(SEED_INPUT);
      const room = { since: 0, maxUnfinished: 2, maxStartsSince: 3, maxBytes: 3 * input };
      const create = (jobId: string, quota: CreateQuota) => {
        const created = jobEvent(jobId, 1, "job.created");
        return store.create(job(jobId, 2_000), [created], applyJobEvents(createJobFold(jobId), [created]), quota);
      };
      await create("q1", room);
      await create("q2", room);
      // two unfinished: no room for a third at once
      await expect(create("q3", room)).rejects.toBeInstanceOf(QuotaExceededError);
      expect(await store.getJob("q3")).toBeUndefined();
      await extend(store, "q1", ["job.started", "job.failed"]);
      await create("q3", room);
      // three starts since 0 (one counts from 2,000 on, if `since` says so)
      await extend(store, "q2", ["job.started", "job.failed"]);
      await expect(create("q4", room)).rejects.toBeInstanceOf(QuotaExceededError);
      await create("q4", { ...room, since: 2_001 });
      // bytes: q3 and q4 keep their inputs; a third input would pass the limit by one byte
      const roomButBytes = { since: 0, maxUnfinished: 9, maxStartsSince: 9, maxBytes: 3 * input - 1 };
      await expect(create("q5", roomButBytes)).rejects.toBeInstanceOf(QuotaExceededError);
      await create("q5", { ...roomButBytes, maxBytes: 3 * input });
      expect(await store.usage("alice", 0)).toMatchObject({ unfinished: 3, startedSince: 5, bytes: 3 * input });
    });

    it("lets only one of many creations at the same instant take the last place", async () => {
      store = makeStore();
      const quota = { since: 0, maxUnfinished: 1, maxStartsSince: 100, maxBytes: Number.POSITIVE_INFINITY };
      const tries = Array.from({ length: 10 }, (_, i) => {
        const created = jobEvent(`r${i}`, 1, "job.created");
        return store.create(job(`r${i}`), [created], applyJobEvents(createJobFold(`r${i}`), [created]), quota);
      });
      const settled = await Promise.allSettled(tries);
      expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
      expect(await store.usage("alice", 0)).toMatchObject({ unfinished: 1, startedSince: 1 });
    });

    it("answers a ping", async () => {
      store = makeStore();
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
