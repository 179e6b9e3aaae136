/**
 * A Redis that is connected but does not answer (`CLIENT PAUSE`, sent on a connection of the
 * test's own, to a redis-server of its own so that other tests' Redis never stalls): job calls and
 * starts answer `store_unavailable` while the pause lasts, /healthz says 503, the stall is told as
 * a loss and the first answer after it as the return; BullMQ's worker, whose blocking read has no
 * command deadline, still runs the next job.
 */
import type { ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { TOOL } from "../../../shared/tools.js";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import {
  callTool,
  connectClient,
  startJob,
  startTestServer,
  toolError,
} from "../../../test-kit/servers/test-server.js";
import { createBullmqExecutor } from "../executor-bullmq.js";
import { createJobService } from "../job-service.js";
import { testMatch } from "../../../test-kit/jobs/service-reads.js";
import { freePort, killRedis, startRedis } from "../../../test-kit/servers/redis-server.js";
import { createRedisStore } from "./redis.js";

/** Long enough that a call which waited for Redis would come back with an answer, not an error. */
const PAUSE_MS = 8_000;

describe("a Redis that stops answering", () => {
  let redis: ChildProcess | undefined;
  afterAll(async () => {
    if (redis) await killRedis(redis);
  });

  it("answers store_unavailable while paused, tells the stall and its end once, and runs jobs after it", async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const url = `redis://127.0.0.1:${port}`;
    const changes: boolean[] = [];
    // as jobs-env.ts wires it: the queue shares the store's command connection
    const store = createRedisStore({ url, keyPrefix: "stall:", onConnectionChange: (up) => void changes.push(up) });
    const jobs = createJobService({
      store,
      match: testMatch,
      executor: createBullmqExecutor({ url, connection: store.connection, prefix: "stall:queue", concurrency: 1 }),
    });
    const server = await startTestServer({ jobs });
    const client = await connectClient(server.mcpUrl);
    const admin = new Redis(url);
    const START = { occasion: "holiday", budgetPerPerson: 50, csv: employeeCsv(5) };
    try {
      const { jobId } = await startJob(client, START);
      await admin.call("CLIENT", "PAUSE", String(PAUSE_MS));
      const asked = performance.now();
      const [read, start, health] = await Promise.all([
        callTool(client, TOOL.getJobEvents, { jobId, afterSeq: 0 }),
        callTool(client, TOOL.startBulk, START),
        fetch(`${server.url}/healthz`),
      ]);
      console.log(
        `while Redis was paused, a read, a start and /healthz answered in ${Math.round(performance.now() - asked)} ms`,
      );
      for (const result of [read, start]) {
        expect(toolError(result)).toMatchObject({
          code: "store_unavailable",
          message: expect.stringContaining("The job store is unreachable"),
          retryable: true,
        });
      }
      expect(health.status).toBe(503);
      expect(changes).toEqual([false]);

      // once the pause is over, the next call is answered, and that answer ends the stall
      await vi.waitFor(
        async () => expect((await callTool(client, TOOL.getJobEvents, { jobId, afterSeq: 0 })).isError).not.toBe(true),
        {
          timeout: PAUSE_MS * 2,
          interval: 250,
        },
      );
      expect(changes).toEqual([false, true]);
      const after = await startJob(client, START);
      const done = await callTool(client, TOOL.waitForJob, { jobId: after.jobId, timeoutMs: 20_000 });
      expect(done.structuredContent).toMatchObject({ status: "completed", done: true });
    } finally {
      // on Redis 7.0 an unpause waits out the pause itself; the test's Redis is killed after all
      await admin.call("CLIENT", "UNPAUSE").catch(() => {});
      admin.disconnect();
      await client.close();
      await server.close();
    }
  }, 60_000);
});
