/**
 * Start-up recovery with BullMQ workers, against the real Redis: an instance ends only the
 * unfinished jobs that no queue holds and that are older than the grace period (a crash between
 * create and enqueue), never a job still queued or one another instance may be queuing right now;
 * a job BullMQ gives up (its worker stalled too often) ends in the store too; and the instance
 * that created a job hears every event a worker elsewhere appends.
 */
import { randomUUID } from "node:crypto";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../../test-kit/redis.js";
import { createBullmqExecutor, JOB_QUEUE } from "./executor-bullmq.js";
import type { JobEventNotice } from "./job-log.js";
import { createJobService } from "./job-service.js";
import { createRedisStore } from "./stores/redis.js";
import { ALICE, history, settle, testMatch } from "../../test-kit/jobs/service-reads.js";
import { expectJobHistory } from "../../test-kit/job-history.js";

const unreachable = await redisUnreachable("the BullMQ executor tests");
const prefix = `giftgenius-test:${randomUUID()}:`;

describe.runIf(unreachable === undefined)("jobs run by BullMQ workers", () => {
  const admin = unreachable === undefined ? new Redis(redisUrl) : undefined;
  afterAll(async () => {
    await deleteKeysUnder(admin!, prefix);
    await admin!.quit();
  });

  let places = 0;
  /** Where one test's jobs and queue live. */
  const place = () => {
    const keyPrefix = `${prefix}${++places}:`;
    return { keyPrefix, queuePrefix: `${keyPrefix}queue` };
  };
  /** A web-only instance (no worker) on `at`, whose clock reads `at`. */
  const instance = ({ keyPrefix, queuePrefix }: ReturnType<typeof place>, at = Date.now()) =>
    createJobService({
      store: createRedisStore({ url: redisUrl, keyPrefix }),
      match: testMatch,
      now: () => at,
      executor: createBullmqExecutor({ url: redisUrl, prefix: queuePrefix, concurrency: 0, graceMs: 60_000 }),
    });

  it("ends at start-up only the old unfinished jobs that no queue holds", async () => {
    const now = Date.now();
    const at = place();
    const earlier = instance(at, now - 120_000);
    const later = instance(at, now);
    const start = async (service: ReturnType<typeof instance>) => {
      const r = await service.start({ occasion: "holiday", budgetPerPerson: 40, csv: employeeCsv(5) }, ALICE);
      if (!r.ok) throw new Error(r.error.message);
      return r.value.jobId;
    };
    const [lost, queued, fresh] = [await start(earlier), await start(earlier), await start(later)];
    // as if each instance had died between creating the job and queuing it
    const queue = new Queue(JOB_QUEUE, { connection: { url: redisUrl }, prefix: at.queuePrefix });
    expect(await queue.remove(lost)).toBe(1);
    expect(await queue.remove(fresh)).toBe(1);
    await queue.close();
    await Promise.all([earlier.close(), later.close()]);

    const next = instance(at, now);
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
  it("ends in the store a job that BullMQ gave up after its worker stopped renewing its hold", async () => {
    const at = place();
    const web = instance(at);
    const r = await web.start({ occasion: "holiday", budgetPerPerson: 40, csv: employeeCsv(5) }, ALICE);
    if (!r.ok) throw new Error(r.error.message);
    const { jobId } = r.value;
    // a worker that takes the job and then hangs without renewing its lock, as a frozen process would
    let taken!: () => void;
    const took = new Promise<void>((resolve) => (taken = resolve));
    const frozen = new Worker(JOB_QUEUE, () => (taken(), new Promise(() => {})), {
      connection: { url: redisUrl, maxRetriesPerRequest: null },
      prefix: at.queuePrefix,
      lockDuration: 300,
      skipLockRenewal: true,
      skipStalledCheck: true,
    });
    await took;
    const live = createJobService({
      store: createRedisStore({ url: redisUrl, keyPrefix: at.keyPrefix }),
      match: testMatch,
      executor: createBullmqExecutor({
        url: redisUrl,
        prefix: at.queuePrefix,
        concurrency: 1,
        stalledCheckMs: 200,
        maxStalledCount: 0,
      }),
    });
    try {
      const view = await settle(live, jobId);
      expect(view.error).toMatchObject({
        code: "interrupted",
        message: "The worker running this job stopped before finishing.",
        retryable: true,
      });
      expect(expectJobHistory(await history(live, jobId)).terminal.type).toBe("job.failed");
    } finally {
      await frozen.close(true);
      await Promise.all([web.close(), live.close()]);
    }
  });
  it("tells the listeners of the instance that created a job every event a worker elsewhere appends, once and in order (those of its own appends, only those)", async () => {
    const at = place();
    const web = instance(at);
    const worker = createJobService({
      store: createRedisStore({ url: redisUrl, keyPrefix: at.keyPrefix }),
      match: testMatch,
      executor: createBullmqExecutor({ url: redisUrl, prefix: at.queuePrefix, concurrency: 1 }),
    });
    try {
      const heard: JobEventNotice[] = [];
      const heardHere: JobEventNotice[] = [];
      web.onEvent((n) => heard.push(n));
      web.onEvent((n) => heardHere.push(n), { appendedHere: true });
      const started = await web.start({ occasion: "holiday", budgetPerPerson: 40, csv: employeeCsv(3_000) }, ALICE);
      if (!started.ok) throw new Error(started.error.message);
      const view = await settle(web, started.value.jobId);
      expect(view.status).toBe("completed");
      await vi.waitFor(() => expect(heard.at(-1)?.event.type).toBe("job.completed"));
      const events = await history(web, started.value.jobId);
      expect(heard.map((n) => n.event)).toEqual(events);
      expect(heard.at(-1)?.fold).toEqual(view);
      expect(heard.every((n) => n.owner.subject === ALICE.subject)).toBe(true);
      // a listener of this process's appends alone hears the job's creation, and none of the worker's
      expect(heardHere.map((n) => n.event)).toEqual(events.slice(0, 1));
    } finally {
      await Promise.all([web.close(), worker.close()]);
    }
  });
});
