/**
 * Start-up recovery with BullMQ workers, against the real Redis: an instance ends only the
 * unfinished jobs that no queue holds and that are older than the grace period (a crash between
 * create and enqueue), never a job still queued or one another instance may be queuing right now.
 */
import { randomUUID } from "node:crypto";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../../test-kit/redis.js";
import { createBullmqExecutor, JOB_QUEUE } from "./executor-bullmq.js";
import { createJobService } from "./job-service.js";
import { createRedisStore } from "./stores/redis.js";
import { ALICE, history, testMatch } from "./test-support.js";

const unreachable = await redisUnreachable("the BullMQ executor tests");
const prefix = `giftgenius-test:${randomUUID()}:`;
const queuePrefix = `${prefix}queue`;

describe.runIf(unreachable === undefined)("jobs run by BullMQ workers", () => {
  const admin = unreachable === undefined ? new Redis(redisUrl) : undefined;
  afterAll(async () => {
    await deleteKeysUnder(admin!, prefix);
    await admin!.quit();
  });

  /** A web-only instance (no worker) whose clock reads `at`. */
  const instance = (at: number) =>
    createJobService({
      store: createRedisStore({ url: redisUrl, keyPrefix: prefix }),
      match: testMatch,
      now: () => at,
      executor: createBullmqExecutor({ url: redisUrl, prefix: queuePrefix, concurrency: 0, graceMs: 60_000 }),
    });

  it("ends at start-up only the old unfinished jobs that no queue holds", async () => {
    const now = Date.now();
    const earlier = instance(now - 120_000);
    const later = instance(now);
    const start = async (service: ReturnType<typeof instance>) => {
      const r = await service.start({ occasion: "holiday", budgetPerPerson: 40, csv: employeeCsv(5) }, ALICE);
      if (!r.ok) throw new Error(r.error.message);
      return r.value.jobId;
    };
    const [lost, queued, fresh] = [await start(earlier), await start(earlier), await start(later)];
    // as if each instance had died between creating the job and queuing it
    const queue = new Queue(JOB_QUEUE, { connection: { url: redisUrl }, prefix: queuePrefix });
    expect(await queue.remove(lost)).toBe(1);
    expect(await queue.remove(fresh)).toBe(1);
    await queue.close();
    await Promise.all([earlier.close(), later.close()]);

    const next = instance(now);
    try {
      const types = async (jobId: string) => (await history(next, jobId)).map((e) => e.type);
      expect(await types(queued)).toEqual(["job.created"]);
      expect(await types(fresh)).toEqual(["job.created"]);
      const ended = await history(next, lost);
      expect(ended.map((e) => e.type)).toEqual(["job.created", "job.failed"]);
      expect(ended[1]).toMatchObject({
        payload: { code: "interrupted", message: "The job was lost before a worker could start it.", retryable: true },
      });
    } finally {
      await next.close();
    }
  });
});
