/**
 * The JobStore contract as one suite that every store runs: atomic creation and appends with
 * gapless seqs, reads after a seq, results put chunk by chunk and seen only once committed with
 * their head, no chunks left by jobs that end without a result, unfinished jobs, and expiry; with
 * what store-data-suite.ts and store-list-suite.ts add.
 */
import { afterEach, describe, expect, it } from "vitest";
import { applyJobEvents, foldJobEvents, type JobFold } from "../../shared/job-reducer.js";
import { jobEvent } from "../job-events.js";
import { describeStoreData } from "./store-data-suite.js";
import { describeStoreLists } from "./store-list-suite.js";
import { extend, head, job, seed, type ChunksKept } from "./store-seed.js";
import { StoreConflictError, foldOf, type JobStore } from "../../server/jobs/store.js";

/** The suite for the store `makeStore` opens; with `chunksKept`, it also checks that chunks are really deleted. */
export function describeJobStore(name: string, makeStore: () => JobStore, chunksKept?: ChunksKept): void {
  describe(`the ${name} job store`, () => {
    let store: JobStore;
    afterEach(async () => store?.close());

    it("keeps a job with its owner, creation time, status, last seq and cached fold", async () => {
      store = makeStore();
      const events = await seed(store, "j1", ["job.started"], 1234);
      const stored = await store.getJob("j1");
      expect(stored).toMatchObject({
        jobId: "j1",
        owner: { subject: "alice", sessionId: "s1" },
        createdAt: 1234,
        status: "running",
        lastSeq: 2,
      });
      expect(stored?.fold).toEqual(foldJobEvents("j1", events));
      expect(await foldOf(store, stored!)).toEqual(foldJobEvents("j1", events));
      expect(await store.getJob("nope")).toBeUndefined();
    });

    it("rebuilds a fold from the events when the cached one does not parse or is stale", async () => {
      store = makeStore();
      const events = await seed(store, "j1", ["job.started", "job.progress", "job.progress"]);
      const stored = (await store.getJob("j1"))!;
      const truth = foldJobEvents("j1", events);
      expect(await foldOf(store, { ...stored, fold: { version: "an older reducer" } })).toEqual(truth);
      expect(await foldOf(store, { ...stored, fold: undefined })).toEqual(truth);
      expect(await foldOf(store, { ...stored, fold: foldJobEvents("j1", events.slice(0, 2)) })).toEqual(truth);
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
      const view: JobFold = await foldOf(store, (await store.getJob("j1"))!);
      await expect(store.append("j1", [jobEvent("j1", 2, "job.progress")], view)).rejects.toBeInstanceOf(
        StoreConflictError,
      );
      await expect(
        store.append("j1", [jobEvent("j1", 3, "job.progress"), jobEvent("j1", 5, "job.progress")], view),
      ).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.append("nope", [jobEvent("nope", 1, "job.progress")], view)).rejects.toBeInstanceOf(
        StoreConflictError,
      );
      await expect(store.create(job("j1"), [jobEvent("j1", 1, "job.created")], view)).rejects.toBeInstanceOf(
        StoreConflictError,
      );
      expect((await store.readEvents("j1", 0, 10)).map((e) => e.seq)).toEqual([1, 2]);
      expect((await store.getJob("j1"))!.lastSeq).toBe(2);
    });
  });
  describeResults(name, makeStore, chunksKept);
  describeLifetimes(name, makeStore, chunksKept);
  describeStoreData(name, makeStore, chunksKept);
  describeStoreLists(name, makeStore);
}

/** Results put chunk by chunk, as part of the store suite. */
function describeResults(name: string, makeStore: () => JobStore, chunksKept?: ChunksKept): void {
  describe(`the ${name} job store`, () => {
    let store: JobStore;
    afterEach(async () => store?.close());

    it("stores the result chunk by chunk, and shows it only once its head comes with the final event", async () => {
      store = makeStore();
      await seed(store, "j1", ["job.started"]);
      await store.putResultChunk("j1", 0, "chunk-0");
      await store.putResultChunk("j1", 1, "chunk-1");
      expect(await store.readResultHead("j1")).toBeUndefined();
      expect(await store.readChunks("j1", 0, 2)).toEqual([]);
      await extend(store, "j1", ["job.completed"], head(3, 2));
      expect(await store.readResultHead("j1")).toEqual(head(3, 2));
      expect(await store.readChunks("j1", 0, 2)).toEqual(["chunk-0", "chunk-1"]);
      expect(await store.readChunks("j1", 1, 5)).toEqual(["chunk-1"]);
      expect(await store.readChunks("j1", 2, 5)).toEqual([]);
      expect(await store.readResultHead("nope")).toBeUndefined();
      expect(await store.readChunks("nope", 0, 1)).toEqual([]);
    });

    it("takes chunks in order only, and only for a job that is still going", async () => {
      store = makeStore();
      await seed(store, "j1", ["job.started"]);
      await expect(store.putResultChunk("j1", 1, "too early")).rejects.toBeInstanceOf(StoreConflictError);
      await store.putResultChunk("j1", 0, "chunk-0");
      await expect(store.putResultChunk("j1", 0, "again")).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.putResultChunk("nope", 0, "x")).rejects.toBeInstanceOf(StoreConflictError);
      await extend(store, "j1", ["job.completed"], head(1, 1));
      await expect(store.putResultChunk("j1", 1, "late")).rejects.toBeInstanceOf(StoreConflictError);
      expect(await store.readChunks("j1", 0, 5)).toEqual(["chunk-0"]);
      await seed(store, "j2", ["job.started", "job.canceled"]);
      await expect(store.putResultChunk("j2", 0, "after the end")).rejects.toBeInstanceOf(StoreConflictError);
    });

    it("refuses a head whose chunks are not all there, or a second result, and writes nothing of that append", async () => {
      store = makeStore();
      await seed(store, "j1", ["job.started"]);
      await store.putResultChunk("j1", 0, "chunk-0");
      const completed = jobEvent("j1", 3, "job.completed");
      const view = applyJobEvents(await foldOf(store, (await store.getJob("j1"))!), [completed]);
      await expect(store.append("j1", [completed], view, head(3, 2))).rejects.toBeInstanceOf(StoreConflictError);
      expect((await store.readEvents("j1", 0, 10)).map((e) => e.seq)).toEqual([1, 2]);
      expect((await store.getJob("j1"))!.status).toBe("running");
      expect(await store.readResultHead("j1")).toBeUndefined();
      await store.append("j1", [completed], view, head(1, 2));
      await expect(store.append("j1", [jobEvent("j1", 4, "job.progress")], view, head(1, 2))).rejects.toBeInstanceOf(
        StoreConflictError,
      );
      expect(await store.readResultHead("j1")).toEqual(head(1, 2));
      // an empty result has no chunks at all
      await seed(store, "empty", ["job.started", "job.completed"], undefined, { head: head(0, 5), chunks: [] });
      expect(await store.readResultHead("empty")).toEqual(head(0, 5));
      expect(await store.readChunks("empty", 0, 1)).toEqual([]);
    });

    it.each(["job.canceled", "job.failed"] as const)(
      "deletes the chunks of a job that ends %s, without a result",
      async (end) => {
        store = makeStore();
        await seed(store, "j1", ["job.started"]);
        await store.putResultChunk("j1", 0, "chunk-0");
        await store.putResultChunk("j1", 1, "chunk-1");
        if (chunksKept) expect(await chunksKept(store, "j1")).toBe(2);
        await extend(store, "j1", [end]);
        expect(await store.readResultHead("j1")).toBeUndefined();
        expect(await store.readChunks("j1", 0, 5)).toEqual([]);
        if (chunksKept) expect(await chunksKept(store, "j1")).toBe(0);
        // a later end cannot touch a committed result
        await seed(store, "done", ["job.started", "job.completed"], undefined, {
          head: head(2, 1),
          chunks: ["a", "b"],
        });
        await extend(store, "done", [end]);
        expect(await store.readChunks("done", 0, 5)).toEqual(["a", "b"]);
      },
    );
  });
}

/** Unfinished jobs and expiry, as part of the store suite. */
function describeLifetimes(name: string, makeStore: () => JobStore, chunksKept?: ChunksKept): void {
  describe(`the ${name} job store`, () => {
    let store: JobStore;
    afterEach(async () => store?.close());

    it("lists unfinished jobs, oldest first", async () => {
      store = makeStore();
      await seed(store, "late", ["job.started"], 3_000);
      await seed(store, "done", ["job.started", "job.completed"], 1_000);
      await seed(store, "early", [], 2_000);
      expect((await store.listUnfinished()).map((j) => [j.jobId, j.status])).toEqual([
        ["early", "pending"],
        ["late", "running"],
      ]);
    });

    it("expires finished jobs created before a time, with everything they own", async () => {
      store = makeStore();
      await seed(store, "old", ["job.started", "job.completed"], 1_000, { head: head(2, 1), chunks: ["a", "b"] });
      await seed(store, "old-running", ["job.started"], 1_000);
      await seed(store, "new", ["job.started", "job.completed"], 5_000);
      expect(await store.expire(2_000)).toEqual(["old"]);
      expect(await store.getJob("old")).toBeUndefined();
      expect(await store.readEvents("old", 0, 10)).toEqual([]);
      expect(await store.readResultHead("old")).toBeUndefined();
      expect(await store.readChunks("old", 0, 5)).toEqual([]);
      if (chunksKept) expect(await chunksKept(store, "old")).toBe(0);
      expect(await store.getJob("old-running")).toBeDefined();
      expect(await store.getJob("new")).toBeDefined();
      expect(await store.expire(2_000)).toEqual([]);
    });
  });
}
