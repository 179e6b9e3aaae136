/**
 * The Redis store against a real Redis (REDIS_URL, default 127.0.0.1:6379): the store contract, the
 * service suite and the durable-store suite (jobs that outlive a process, killed or not), then what
 * only a shared server gives: racing writers and follow-up claims on two connections, a client
 * shared with the caller, jobs written before owners' lists, and expiry that leaves no key behind. Each store gets its own key prefix under this run's, and
 * every key of the run is deleted at the end.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { applyJobEvents, createJobFold } from "../../../shared/job-reducer.js";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import { jobEvent } from "../../../test-kit/job-events.js";
import { describeDurableStore } from "../../../test-kit/jobs/durable-store-suite.js";
import { pauseAtPace } from "../../dev-pace.js";
import { createBullmqExecutor } from "../executor-bullmq.js";
import { createJobService } from "../job-service.js";
import { describeJobService } from "../../../test-kit/jobs/service-suite.js";
import { describeJobStore } from "../../../test-kit/jobs/store-suite.js";
import type { ChunksKept } from "../../../test-kit/jobs/store-seed.js";
import { StoreConflictError, type JobStore } from "../store.js";
import { ALICE, settle, testMatch } from "../../../test-kit/jobs/service-reads.js";
import { createRedisStore } from "./redis.js";
import { deleteKeysUnder, keysUnder, redisUnreachable, redisUrl } from "../../../test-kit/redis.js";

const url = redisUrl;
const unreachable = await redisUnreachable("the Redis store tests");

const runPrefix = `giftgenius-test:${randomUUID()}:`;
let prefixes = 0;
const nextPrefix = () => `${runPrefix}${++prefixes}:`;
const makeStore = (keyPrefix = nextPrefix()) => createRedisStore({ url, keyPrefix });

describe.runIf(unreachable === undefined)("the redis store", () => {
  const admin = unreachable === undefined ? new Redis(url) : undefined;
  afterAll(async () => {
    await deleteKeysUnder(admin!, runPrefix);
    await admin!.quit();
  });

  const prefixOf = new WeakMap<JobStore, string>();
  /** A job's chunks, committed or not, counted on another connection. */
  const chunksKept: ChunksKept = async (store, jobId) => {
    const prefix = prefixOf.get(store)!;
    return (await admin!.llen(`${prefix}parts:${jobId}`)) + (await admin!.llen(`${prefix}chunks:${jobId}`));
  };
  describeJobStore(
    "redis",
    () => {
      const prefix = nextPrefix();
      const store = makeStore(prefix);
      prefixOf.set(store, prefix);
      return store;
    },
    chunksKept,
  );
  describeJobService("redis", () => makeStore());
  describeJobService("redis, jobs run by BullMQ workers,", () => makeStore(), {
    executor: () => ({ create: createBullmqExecutor({ url, prefix: `${nextPrefix()}queue` }), shared: true }),
  });
  describeDurableStore("redis", () => ["redis", url, nextPrefix()]);

  describe("on a shared server", () => {
    const created = (jobId: string) => jobEvent(jobId, 1, "job.created");
    const started = (jobId: string) => jobEvent(jobId, 2, "job.started");
    const seed = (store: JobStore, jobId: string) =>
      store.create(
        { jobId, owner: ALICE, createdAt: 1_000, input: { occasion: "o", budgetPerPerson: 1, employees: [] } },
        [created(jobId)],
        applyJobEvents(createJobFold(jobId), [created(jobId)]),
      );

    it("wakes a long poll on one instance with the events another instance appends", async () => {
      const prefix = nextPrefix();
      // two instances of the service on one Redis, as behind a load balancer; B is up before the job
      const b = createJobService({ store: makeStore(prefix), match: testMatch });
      await b.getEvents({ jobId: "none", afterSeq: 0, waitMs: 0, limit: 1 }, ALICE); // B's start-up is over
      const a = createJobService({ store: makeStore(prefix), match: testMatch, beforeSlice: pauseAtPace });
      try {
        // a second between slices: after B's first read, nothing new comes for a while
        const started = await a.start({ occasion: "o", budgetPerPerson: 40, csv: employeeCsv(2_000) }, ALICE, {
          runOptions: { paceMs: 1_000 },
        });
        if (!started.ok) throw new Error(started.error.message);
        const { jobId } = started.value;
        const first = await b.getEvents({ jobId, afterSeq: 0, waitMs: 0, limit: 100 }, ALICE);
        if (!first.ok) throw new Error(first.error.message);
        // a long poll on B, past what B has read: only A's next append can answer it before 20 s
        const polled = await b.getEvents({ jobId, afterSeq: first.value.nextSeq, waitMs: 20_000, limit: 100 }, ALICE);
        if (!polled.ok) throw new Error(polled.error.message);
        expect(polled.value.events.length).toBeGreaterThan(0);
        expect(polled.value.events[0].seq).toBe(first.value.nextSeq + 1);
        // the cursor means the same on both instances
        const onA = await a.getEvents({ jobId, afterSeq: first.value.nextSeq, waitMs: 0, limit: 100 }, ALICE);
        expect(onA.ok && onA.value.events.slice(0, polled.value.events.length)).toEqual(polled.value.events);
        await a.cancel({ jobId }, ALICE);
      } finally {
        await a.close();
        await b.close();
      }
    }, 10_000);

    it("lets exactly one of two writers on separate connections append the same seq", async () => {
      const prefix = nextPrefix();
      const [a, b] = [makeStore(prefix), makeStore(prefix)];
      try {
        for (let i = 0; i < 50; i++) {
          const jobId = `race-${i}`;
          await seed(a, jobId);
          const view = applyJobEvents(createJobFold(jobId), [created(jobId), started(jobId)]);
          const outcomes = await Promise.allSettled([
            a.append(jobId, [started(jobId)], view),
            b.append(jobId, [started(jobId)], view),
          ]);
          expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
          const refused = outcomes.find((o) => o.status === "rejected");
          expect(refused?.status === "rejected" && refused.reason).toBeInstanceOf(StoreConflictError);
          expect((await b.readEvents(jobId, 0, 10)).map((e) => e.seq)).toEqual([1, 2]);
        }
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it("reads through a client it was given what another connection wrote, and leaves that client open", async () => {
      const prefix = nextPrefix();
      const writer = makeStore(prefix);
      const client = new Redis(url);
      try {
        await seed(writer, "given");
        const store = createRedisStore({ client, keyPrefix: prefix });
        expect(await store.readEvents("given", 0, 10)).toEqual([created("given")]);
        await store.close();
        expect(await client.ping()).toBe("PONG");
      } finally {
        await writer.close();
        await client.quit();
      }
    });

    it("gives a job's follow-up to one of 20 claims made at once on two connections", async () => {
      const prefix = nextPrefix();
      const [a, b] = [makeStore(prefix), makeStore(prefix)];
      try {
        await seed(a, "claimed");
        const fold = applyJobEvents(createJobFold("claimed"), [created("claimed"), started("claimed")]);
        await a.append("claimed", [started("claimed")], fold);
        const ended = jobEvent("claimed", 3, "job.canceled");
        await a.append("claimed", [ended], applyJobEvents(fold, [ended]));
        const claims = await Promise.all(
          Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claimFollowUp("claimed")),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
        // no claim makes a job's hash where there is no job
        expect(await b.claimFollowUp("nobody")).toBe(false);
        expect(await admin!.exists(`${prefix}job:nobody`)).toBe(0);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it("deletes and expires a job written before owners' lists, which is on none", async () => {
      const prefix = nextPrefix();
      const store = makeStore(prefix);
      try {
        await seed(store, "before");
        await admin!.hdel(`${prefix}job:before`, "list");
        await admin!.del(`${prefix}list:${ALICE.subject}`);
        expect(await store.listJobs(ALICE.subject, { limit: 10 })).toEqual([]);
        expect(await store.delete("before")).toBe(true);
        expect(await store.getJob("before")).toBeUndefined();
      } finally {
        await store.close();
      }
    });

    it("deletes every key an expired job owned", async () => {
      const prefix = nextPrefix();
      const service = createJobService({ store: makeStore(prefix), match: testMatch });
      const r = await service.start({ csv: employeeCsv(20), occasion: "holiday", budgetPerPerson: 40 }, ALICE);
      if (!r.ok) throw new Error(r.error.message);
      await settle(service, r.value.jobId);
      await service.close();
      const ofJob = async () => (await keysUnder(admin!, prefix)).filter((k) => k.endsWith(r.value.jobId));
      // job, events, result head and chunks; the input went when the job ended
      expect((await ofJob()).length).toBeGreaterThanOrEqual(4);
      expect(await admin!.exists(`${prefix}input:${r.value.jobId}`)).toBe(0);
      expect(Number(await admin!.hget(`${prefix}usage:${ALICE.subject}`, "bytes"))).toBeGreaterThan(0);
      const store = makeStore(prefix);
      try {
        expect(await store.expire(Date.now() + 1)).toEqual([r.value.jobId]);
        expect(await ofJob()).toEqual([]);
        expect(await admin!.zscore(`${prefix}jobs:finished`, r.value.jobId)).toBeNull();
        // the subject's counts go with its last job; only the day's record of starts stays, to expire
        expect(await keysUnder(admin!, prefix)).toEqual([`${prefix}starts:${ALICE.subject}`]);
      } finally {
        await store.close();
      }
    });
  });
});

/** Why Redis at `url` cannot be used, or undefined when it answers a PING. */
