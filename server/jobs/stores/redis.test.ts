/**
 * The Redis store against a real Redis (REDIS_URL, default 127.0.0.1:6379): the store contract and
 * the service suite, then what only a shared server gives: racing writers on two connections, jobs
 * that outlive a process, crashed or not, and expiry that leaves no key behind. Each store gets its
 * own key prefix under this run's, and every key of the run is deleted at the end.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { applyJobEvents, createJobFold } from "../../../shared/job-reducer.js";
import type { JobEvent } from "../../../shared/job-events.js";
import { createJobService } from "../job-service.js";
import { describeJobService } from "../service-suite.js";
import { describeJobStore, type ChunksKept } from "../store-suite.js";
import { StoreConflictError, type JobStore } from "../store.js";
import { ALICE, expectValidHistory, history, makeCsv, settle, testMatch } from "../test-support.js";
import { createRedisStore } from "./redis.js";

const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const ci = process.env.CI !== undefined && !["", "0", "false"].includes(process.env.CI);
const unreachable = await reach(url);
if (unreachable !== undefined) {
  // in CI these tests are required: a missing Redis fails the run instead of hiding in a skip
  if (ci) throw new Error(`Redis at ${url} is unreachable (${unreachable}); CI needs it for the Redis store tests.`);
  console.warn(`Skipping the Redis store tests: Redis at ${url} is unreachable (${unreachable}).`);
}

const runPrefix = `giftgenius-test:${randomUUID()}:`;
let prefixes = 0;
const nextPrefix = () => `${runPrefix}${++prefixes}:`;
const makeStore = (keyPrefix = nextPrefix()) => createRedisStore({ url, keyPrefix });

describe.runIf(unreachable === undefined)("the redis store", () => {
  const admin = unreachable === undefined ? new Redis(url) : undefined;
  const keysUnder = async (prefix: string) => {
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, batch] = await admin!.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== "0");
    return keys;
  };
  afterAll(async () => {
    const keys = await keysUnder(runPrefix);
    for (let i = 0; i < keys.length; i += 500) await admin!.unlink(...keys.slice(i, i + 500));
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

  describe("on a shared server", () => {
    const created = (jobId: string): JobEvent => ({
      type: "job.created",
      eventId: `${jobId}:1`,
      jobId,
      seq: 1,
      timestamp: "2026-01-01T00:00:00.000Z",
      payload: { kind: "bulk", title: "t", stages: [{ id: "parse", label: "Parse" }] },
    });
    const started = (jobId: string): JobEvent => ({
      type: "job.started",
      eventId: `${jobId}:2`,
      jobId,
      seq: 2,
      timestamp: "2026-01-01T00:00:01.000Z",
      payload: {},
    });
    const seed = (store: JobStore, jobId: string) =>
      store.create(
        { jobId, owner: ALICE, createdAt: 1_000, input: { occasion: "o", budgetPerPerson: 1, employees: [] } },
        [created(jobId)],
        applyJobEvents(createJobFold(jobId), [created(jobId)]),
      );

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

    it("keeps finished results and every event for the next process, and leaves a given client open", async () => {
      const prefix = nextPrefix();
      const first = createJobService({ store: makeStore(prefix), match: testMatch });
      const start = await first.start({ csv: makeCsv(7_000), occasion: "farewell", budgetPerPerson: 30 }, ALICE);
      if (!start.ok) throw new Error(start.error.message);
      await settle(first, start.value.jobId);
      const events = await history(first, start.value.jobId);
      const result = await first.readResult(start.value.jobId, ALICE);
      await first.close();

      const client = new Redis(url);
      try {
        const second = createJobService({ store: createRedisStore({ client, keyPrefix: prefix }), match: testMatch });
        try {
          expect(await history(second, start.value.jobId)).toEqual(events);
          expect(await second.readResult(start.value.jobId, ALICE)).toEqual(result);
        } finally {
          await second.close();
        }
        expect(await client.ping()).toBe("PONG");
      } finally {
        await client.quit();
      }
    });

    it("deletes every key an expired job owned", async () => {
      const prefix = nextPrefix();
      const service = createJobService({ store: makeStore(prefix), match: testMatch });
      const r = await service.start({ csv: makeCsv(20), occasion: "holiday", budgetPerPerson: 40 }, ALICE);
      if (!r.ok) throw new Error(r.error.message);
      await settle(service, r.value.jobId);
      await service.close();
      const ofJob = async () => (await keysUnder(prefix)).filter((k) => k.endsWith(r.value.jobId));
      expect((await ofJob()).length).toBeGreaterThanOrEqual(5); // job, input, events, result head and chunks
      const store = makeStore(prefix);
      try {
        expect(await store.expire(Date.now() + 1)).toEqual([r.value.jobId]);
        expect(await ofJob()).toEqual([]);
        expect(await admin!.zscore(`${prefix}jobs:finished`, r.value.jobId)).toBeNull();
      } finally {
        await store.close();
      }
    });

    it("ends the jobs a killed process left running or waiting as interrupted, and keeps the rest", async () => {
      const prefix = nextPrefix();
      const { done, running, waiting } = await crashAfterProgress(prefix);
      const service = createJobService({ store: makeStore(prefix), match: testMatch });
      try {
        for (const [jobId, message] of [
          [running, "The server restarted while this job was running, so it stopped before finishing."],
          [waiting, "The server restarted before this job could start."],
        ]) {
          const { terminal } = expectValidHistory(await history(service, jobId));
          expect(terminal).toMatchObject({
            type: "job.failed",
            payload: { code: "interrupted", message, retryable: true },
          });
        }
        expect((await history(service, running)).some((e) => e.type === "job.progress")).toBe(true);
        const result = await service.readResult(done, ALICE);
        expect(result.ok && result.value.people.length).toBe(40);
      } finally {
        await service.close();
      }
    });
  });
});

/** Why Redis at `url` cannot be used, or undefined when it answers a PING. */
async function reach(url: string): Promise<string | undefined> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let cause: string | undefined; // the socket's error says more than the rejected connect
  probe.on("error", (error: Error) => (cause ??= error.message));
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG" ? undefined : "it did not answer PING";
  } catch (error) {
    return cause ?? (error as Error).message;
  } finally {
    probe.disconnect();
  }
}

/**
 * Runs, in a child process on the keys under `keyPrefix`, one small job to the end, a large one
 * past its first progress and one queued behind it, then kills the child with no chance to clean up.
 */
async function crashAfterProgress(keyPrefix: string): Promise<Record<"done" | "running" | "waiting", string>> {
  const path = (p: string) => JSON.stringify(fileURLToPath(new URL(p, import.meta.url)));
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `
    import { createJobService } from ${path("../job-service.ts")};
    import { ALICE, makeCsv, testMatch } from ${path("../test-fixtures.ts")};
    import { createRedisStore } from ${path("./redis.ts")};
    const service = createJobService({ store: createRedisStore({ url: process.argv[1], keyPrefix: process.argv[2] }), match: testMatch, limits: { maxConcurrentJobs: 1 } });
    const start = async (rows) => (await service.start({ csv: makeCsv(rows), occasion: "holiday", budgetPerPerson: 40 }, ALICE)).value.jobId;
    const done = await start(40);
    await service.waitFor({ jobId: done, timeoutMs: 30000 }, ALICE, () => {});
    const running = await start(100000);
    const waiting = await start(5);
    service.onEvent(({ event }) => {
      if (event.jobId === running && event.type === "job.progress" && event.payload.percentage >= 2) process.stdout.write(JSON.stringify({ done, running, waiting }) + "\\n");
    });`,
      url,
      keyPrefix,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", () => reject(new Error("the child exited before its jobs were running")));
  });
  child.kill("SIGKILL");
  await exited;
  return JSON.parse(line);
}
