/**
 * An owner's list of jobs and the claim on a job's follow-up, as part of the store suite: newest
 * first, paged from a position without skipping or repeating a job (creation times tie, jobs come
 * and go between pages), only the owner's, without deleted or expired jobs; and a follow-up
 * claimed once, by one of many claims at once, and only once the job has ended.
 */
import { afterEach, describe, expect, it } from "vitest";
import { extend, seed } from "./store-seed.js";
import type { JobPosition, JobStore } from "../../server/jobs/store.js";

/** Every job of `subject`'s list, read `limit` at a time from the newest; the ids of each page. */
async function pages(store: JobStore, subject: string, limit: number): Promise<string[][]> {
  const read: string[][] = [];
  let before: JobPosition | undefined;
  for (;;) {
    const page = await store.listJobs(subject, { before, limit });
    if (page.length === 0) return read;
    read.push(page.map((j) => j.jobId));
    const last = page[page.length - 1];
    before = { createdAt: last.createdAt, jobId: last.jobId };
  }
}

/** Alice's jobs by creation time, several at the same instant, and Bob's among them. */
const ALICES = [
  ["a1", 1_000],
  ["a2", 2_000],
  ["a3", 2_000],
  ["a4", 2_000],
  ["a5", 3_000],
  ["a0", 3_000],
  ["a6", 4_000],
] as const;
const NEWEST_FIRST = ["a6", "a5", "a0", "a4", "a3", "a2", "a1"];

export function describeStoreLists(name: string, makeStore: () => JobStore): void {
  describe(`the ${name} job store's lists of jobs`, () => {
    let store: JobStore;
    afterEach(async () => store?.close());

    const seedAll = async () => {
      for (const [jobId, createdAt] of ALICES) await seed(store, jobId, ["job.started"], createdAt);
      await seed(store, "b1", ["job.started"], 2_000, undefined, "bob");
      await seed(store, "b2", [], 5_000, undefined, "bob");
    };

    it("lists a subject's jobs newest first, the same whatever the page size, ties in creation time by id", async () => {
      store = makeStore();
      await seedAll();
      const all = await store.listJobs("alice", { limit: 50 });
      expect(all.map((j) => j.jobId)).toEqual(NEWEST_FIRST);
      expect(all[0]).toMatchObject({ owner: { subject: "alice" }, createdAt: 4_000, status: "running", lastSeq: 2 });
      for (const limit of [1, 2, 3, 7]) {
        const read = await pages(store, "alice", limit);
        expect(read.flat(), `pages of ${limit}`).toEqual(NEWEST_FIRST);
        expect(read.every((page) => page.length <= limit)).toBe(true);
      }
      expect((await pages(store, "bob", 1)).flat()).toEqual(["b2", "b1"]);
      expect(await store.listJobs("carol", { limit: 10 })).toEqual([]);
    });

    it("starts a page after a position, whether or not a job is still there", async () => {
      store = makeStore();
      await seedAll();
      const after = (createdAt: number, jobId: string) =>
        store.listJobs("alice", { before: { createdAt, jobId }, limit: 3 }).then((p) => p.map((j) => j.jobId));
      expect(await after(2_000, "a4")).toEqual(["a3", "a2", "a1"]);
      expect(await after(2_000, "a35")).toEqual(["a3", "a2", "a1"]);
      expect(await after(3_000, "a0")).toEqual(["a4", "a3", "a2"]);
      expect(await after(1_000, "a1")).toEqual([]);
      expect(await after(9_000, "z")).toEqual(["a6", "a5", "a0"]);
    });

    it("neither skips nor repeats a job when jobs are created or deleted between pages", async () => {
      store = makeStore();
      await seedAll();
      const first = await store.listJobs("alice", { limit: 3 });
      expect(first.map((j) => j.jobId)).toEqual(["a6", "a5", "a0"]);
      await seed(store, "a7", [], 9_000);
      await seed(store, "a3b", [], 2_000); // after a3 in the order, not yet read
      expect(await store.delete("a0")).toBe(true); // read already
      expect(await store.delete("a2")).toBe(true); // not yet read
      const last = first[first.length - 1];
      const rest = await store.listJobs("alice", {
        before: { createdAt: last.createdAt, jobId: last.jobId },
        limit: 50,
      });
      expect(rest.map((j) => j.jobId)).toEqual(["a4", "a3b", "a3", "a1"]);
    });

    it("lists no job that was deleted or expired", async () => {
      store = makeStore();
      await seedAll();
      await extend(store, "a1", ["job.completed"]);
      await extend(store, "a5", ["job.failed"]);
      expect(await store.expire(2_500)).toEqual(["a1"]);
      expect(await store.delete("a6")).toBe(true);
      expect(await store.delete("b2")).toBe(true);
      expect((await store.listJobs("alice", { limit: 50 })).map((j) => j.jobId)).toEqual([
        "a5",
        "a0",
        "a4",
        "a3",
        "a2",
      ]);
      expect((await store.listJobs("bob", { limit: 50 })).map((j) => j.jobId)).toEqual(["b1"]);
      expect(await store.expire(Number.POSITIVE_INFINITY)).toEqual(["a5"]);
      expect((await store.listJobs("alice", { limit: 50 })).map((j) => j.jobId)).toEqual(["a0", "a4", "a3", "a2"]);
    });
  });

  describe(`the ${name} job store's follow-up claims`, () => {
    let store: JobStore;
    afterEach(async () => store?.close());

    it("gives a job's follow-up to one of 20 claims at once, and only once the job has ended", async () => {
      store = makeStore();
      await seed(store, "j1", ["job.started"]);
      expect(await store.claimFollowUp("j1")).toBe(false);
      await extend(store, "j1", ["job.completed"]);
      const claims = await Promise.all(Array.from({ length: 20 }, () => store.claimFollowUp("j1")));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.claimFollowUp("j1")).toBe(false);
      // the claim changes nothing else of the job
      expect(await store.getJob("j1")).toMatchObject({ status: "completed", lastSeq: 3 });
      expect(await store.claimFollowUp("nope")).toBe(false);
    });

    it.each(["job.failed", "job.canceled"] as const)("claims the follow-up of a job that %s", async (end) => {
      store = makeStore();
      await seed(store, "j1", [], 1_000);
      expect(await store.claimFollowUp("j1")).toBe(false); // pending
      await extend(store, "j1", [end]);
      expect(await store.claimFollowUp("j1")).toBe(true);
      expect(await store.claimFollowUp("j1")).toBe(false);
    });

    it("lets the claim go with the job", async () => {
      store = makeStore();
      await seed(store, "j1", ["job.started", "job.completed"]);
      expect(await store.delete("j1")).toBe(true);
      expect(await store.claimFollowUp("j1")).toBe(false);
      // a new job under the same id (never in practice: ids are random) starts unclaimed
      await seed(store, "j1", ["job.started", "job.completed"]);
      expect(await store.claimFollowUp("j1")).toBe(true);
    });
  });
}
