/**
 * A Redis that dies mid-job, against a real redis-server this test starts on a free port (with an
 * append-only file synced at every write, so that it comes back with its data): while it is down,
 * calls answer `store_unavailable` at once and /healthz answers 503; the connection's loss and
 * return are logged once each; once it is back, /healthz answers 200 and the job that lost its
 * store ends as failed, retryable, with a hint. And a process that starts while Redis is down ends
 * the jobs an earlier one left unfinished as soon as Redis is back, and hears other processes'
 * writes from then on. A process whose Redis is gone still closes, BullMQ's worker too. And the
 * server process, run as in production, logs a 20 s outage in two lines, and takes a start as soon
 * as /healthz says 200.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TOOL } from "../../../shared/tools.js";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import { logRecords } from "../../../test-kit/observability/log-lines.js";
import { startInstance } from "../../../test-kit/servers/instances.js";
import {
  callTool,
  connectClient,
  startJob,
  startTestServer,
  toolError,
} from "../../../test-kit/servers/test-server.js";
import { pauseAtPace } from "../../dev-pace.js";
import { createBullmqExecutor } from "../executor-bullmq.js";
import { createJobService } from "../job-service.js";
import { seed } from "../../../test-kit/jobs/store-seed.js";
import { ALICE, history, testMatch } from "../../../test-kit/jobs/service-reads.js";
import { freePort, killRedis, persistent, startRedis } from "../../../test-kit/servers/redis-server.js";
import { createRedisStore } from "./redis.js";

async function until(test: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a Redis job store that goes down mid-job and comes back", () => {
  const dir = mkdtempSync(join(tmpdir(), "giftgenius-redis-outage-"));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) await killRedis(child);
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers at once while down, logs the loss and the return once, and ends the job failed and retryable", async () => {
    const port = await freePort();
    children.push(await startRedis(port, persistent(dir)));
    const changes: boolean[] = [];
    const errors: string[] = [];
    const jobs = createJobService({
      store: createRedisStore({
        url: `redis://127.0.0.1:${port}`,
        keyPrefix: "outage:",
        onConnectionChange: (up) => void changes.push(up),
      }),
      match: testMatch,
      onError: (_error, context) => void errors.push(context),
      beforeSlice: pauseAtPace,
    });
    const server = await startTestServer({ jobs });
    const client = await connectClient(server.mcpUrl);
    const health = async () => (await fetch(`${server.url}/healthz`)).status;
    try {
      expect(await health()).toBe(200);
      const started = await jobs.start({ csv: employeeCsv(30_000), occasion: "holiday", budgetPerPerson: 50 }, ALICE, {
        runOptions: { paceMs: 20 },
      });
      if (!started.ok) throw new Error(started.error.message);
      const { jobId } = started.value;
      await until(async () => (await history(jobs, jobId)).some((e) => e.type === "job.progress"), "progress");

      await killRedis(children[0]);
      const asked = performance.now();
      const read = await jobs.getEvents({ jobId, afterSeq: 0, waitMs: 0, limit: 10 }, ALICE);
      console.log(`a read while Redis is down answered in ${Math.round(performance.now() - asked)} ms`);
      expect(read).toMatchObject({ ok: false, error: { code: "store_unavailable", retryable: true } });
      const viaTool = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq: 0 });
      expect(toolError(viaTool)).toMatchObject({
        code: "store_unavailable",
        message: expect.stringContaining("The job store is unreachable"),
      });
      const start = await jobs.start({ csv: employeeCsv(5), occasion: "holiday", budgetPerPerson: 50 }, ALICE);
      expect(start).toMatchObject({ ok: false, error: { code: "store_unavailable" } });
      const healthz = await fetch(`${server.url}/healthz`);
      expect(healthz.status).toBe(503);
      expect(await healthz.json()).toMatchObject({ status: "unavailable", store: "unreachable" });
      // several reconnection attempts and end retries go by while it is down
      await new Promise((resolve) => setTimeout(resolve, 3_000));

      children.push(await startRedis(port, persistent(dir)));
      await until(async () => (await health()) === 200, "/healthz to answer 200 again");
      const ended = await jobs.waitFor({ jobId, timeoutMs: 20_000 }, ALICE, () => {});
      if (!ended.ok) throw new Error(ended.error.message);
      // it reads as ended at once; its end is written at the next retry
      await until(async () => (await history(jobs, jobId)).at(-1)?.type === "job.failed", "the end to be written");
      const events = await history(jobs, jobId);
      const last = events[events.length - 1];
      expect(last).toMatchObject({
        type: "job.failed",
        payload: { code: "store_unavailable", retryable: true, hint: expect.stringContaining(TOOL.startBulk) },
      });
      // the data written before the outage came back with Redis
      expect(events.filter((e) => e.type === "job.progress").length).toBeGreaterThan(0);
      expect(changes).toEqual([false, true]);
      // the job's end was told of once, not at every retry
      expect(errors.filter((context) => context.includes(jobId))).toHaveLength(1);
      console.log(`while Redis was down: ${changes.length} connection lines, ${errors.length} error reports`);
    } finally {
      await client.close();
      await server.close();
    }
  }, 60_000);

  it("ends the jobs an earlier process left unfinished once Redis is back, though it was down at start-up", async () => {
    const port = await freePort();
    const data = mkdtempSync(join(dir, "recovery-"));
    children.push(await startRedis(port, persistent(data)));
    const url = `redis://127.0.0.1:${port}`;
    const earlier = createRedisStore({ url, keyPrefix: "recovery:" });
    await seed(earlier, "running", ["job.started"], Date.now());
    await seed(earlier, "waiting", [], Date.now());
    await earlier.close();
    await killRedis(children[children.length - 1]);

    const errors: string[] = [];
    const store = createRedisStore({ url, keyPrefix: "recovery:" });
    // subscribed while Redis is down: the subscription must outlast more than one failed retry
    const heard: string[] = [];
    store.watch!((jobId) => void heard.push(jobId));
    const jobs = createJobService({
      store,
      match: testMatch,
      onError: (_error, context) => void errors.push(context),
      beforeSlice: pauseAtPace,
    });
    try {
      expect(await jobs.getEvents({ jobId: "running", afterSeq: 0, waitMs: 0, limit: 10 }, ALICE)).toMatchObject({
        ok: false,
        error: { code: "store_unavailable" },
      });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      children.push(await startRedis(port, persistent(data)));
      await until(async () => (await jobs.health()).store === "ok", "the store to answer again");
      for (const jobId of ["running", "waiting"]) {
        const ended = await jobs.waitFor({ jobId, timeoutMs: 20_000 }, ALICE, () => {});
        expect(ended).toMatchObject({ ok: true, value: { status: "failed", done: true } });
        expect((await history(jobs, jobId)).at(-1)).toMatchObject({
          type: "job.failed",
          payload: { code: "interrupted", retryable: true },
        });
      }
      // told once, though listing was tried every second while Redis was down
      expect(errors.filter((context) => context.startsWith("listing"))).toEqual([
        "listing the jobs an earlier process left unfinished",
      ]);
      // another process's writes wake this one
      const other = createRedisStore({ url, keyPrefix: "recovery:" });
      await seed(other, "elsewhere");
      await other.close();
      await until(async () => heard.includes("elsewhere"), "another process's write to be heard");
    } finally {
      await jobs.close();
    }
  }, 60_000);

  it("closes while Redis is gone, though BullMQ's worker would wait for it", async () => {
    const port = await freePort();
    children.push(await startRedis(port));
    const url = `redis://127.0.0.1:${port}`;
    const store = createRedisStore({ url, keyPrefix: "closing:" });
    const jobs = createJobService({
      store,
      match: testMatch,
      executor: createBullmqExecutor({ url, connection: store.connection, prefix: "closing:queue", concurrency: 1 }),
      beforeSlice: pauseAtPace,
    });
    const started = await jobs.start({ csv: employeeCsv(30_000), occasion: "holiday", budgetPerPerson: 50 }, ALICE, {
      runOptions: { paceMs: 20 },
    });
    if (!started.ok) throw new Error(started.error.message);
    await until(
      async () => (await history(jobs, started.value.jobId)).some((e) => e.type === "job.progress"),
      "progress",
    );
    await killRedis(children[children.length - 1]);
    const outcome = await Promise.race([
      jobs.close().then(() => "closed"),
      new Promise((resolve) => setTimeout(() => resolve("still closing after 20 s"), 20_000)),
    ]);
    expect(outcome).toBe("closed");
  }, 60_000);

  it("logs an outage of the server process in one line when Redis is lost and one when it is back, and takes a start once /healthz says 200", async () => {
    const port = await freePort();
    const data = mkdtempSync(join(dir, "process-"));
    children.push(await startRedis(port, persistent(data)));
    const url = `redis://127.0.0.1:${port}`;
    const server = await startInstance("main", { STORE: "redis", REDIS_URL: url, REDIS_PREFIX: "process:" });
    const base = server.mcpUrl!.origin;
    const health = async () => (await fetch(`${base}/healthz`)).status;
    const START = { occasion: "holiday", budgetPerPerson: 50, csv: employeeCsv(5) };
    try {
      await until(async () => (await health()) === 200, "the server to reach Redis");
      const client = await connectClient(server.mcpUrl!);
      await startJob(client, START);
      const before = server.stderr().length;

      await killRedis(children[children.length - 1]);
      // long enough for a connection of BullMQ's own making to back off to 20 s between tries
      await new Promise((resolve) => setTimeout(resolve, 20_000));
      children.push(await startRedis(port, persistent(data)));
      await until(async () => (await health()) === 200, "/healthz to answer 200 again");
      // what says 200 takes a job: the start is answered at once (the issue asks for 2 s; 5 s here,
      // for a loaded machine), not once the queue's own connection is back, up to 20 s later
      const asked = performance.now();
      const started = await callTool(client, TOOL.startBulk, START, { timeout: 5_000 });
      console.log(`a start once /healthz said 200 again answered in ${Math.round(performance.now() - asked)} ms`);
      expect(started.isError).not.toBe(true);
      await client.close();

      // told once every connection (job store and queue, worker) has Redis back;
      // the other lines are the job's own (its start, its end), none with a Redis command's arguments
      const logged = () => logRecords(server.stderr().slice(before));
      const outageLines = () =>
        logged()
          .map((record) => record.msg ?? "")
          .filter((msg) => msg.startsWith("jobs: Redis at "));
      await until(async () => outageLines().some((msg) => msg.includes("reachable again")), "the return to be told");
      const records = logged();
      console.log(
        `the server logged a 20 s outage in ${records.length} lines:\n${records.map((r) => r.msg).join("\n")}`,
      );
      expect(outageLines()).toEqual([
        expect.stringMatching(
          /^jobs: Redis at 127\.0\.0\.1:\d+ is unreachable for the (job store and queue|job worker) \(.+\); retrying/,
        ),
        expect.stringMatching(/^jobs: Redis at 127\.0\.0\.1:\d+ is reachable again, after \d+ s\.$/),
      ]);
      for (const record of records) {
        expect(record.level).toBeDefined(); // a JSON line of the logger, not a library's own print
        expect(record).not.toHaveProperty("args");
        expect(record).not.toHaveProperty("command");
        expect(JSON.stringify(record)).not.toContain(url);
      }
    } finally {
      await server.stop();
    }
  }, 90_000);
});
