/**
 * One job's lines across the processes that served it, found by its id alone: two servers on one
 * Redis (WORKERS=0) and a worker process; the job started on the first server, followed on the
 * second, run by the worker. Each process says its part, with its role and the owner's hash.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { GetJobEventsOutput, TOOL } from "../../shared/tools.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../../test-kit/redis.js";
import { callTool, connectClient, startJob } from "../../test-kit/servers/test-server.js";
import { startLogged, type LoggedProcess } from "../../test-kit/observability/logged-process.js";

const unreachable = await redisUnreachable("the job lines across instances");
const prefix = `giftgenius-test:${randomUUID()}:`;
const env = { STORE: "redis", REDIS_URL: redisUrl, REDIS_PREFIX: prefix };

describe.runIf(unreachable === undefined)("a job's lines across two instances and a worker", () => {
  const running: LoggedProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map((p) => p.kill()));
    const admin = new Redis(redisUrl);
    await deleteKeysUnder(admin, prefix);
    admin.disconnect();
  });

  it("are all found by the job's id", async () => {
    const [first, second, worker] = await Promise.all([
      startLogged("main", { ...env, WORKERS: "0" }),
      startLogged("main", { ...env, WORKERS: "0" }),
      startLogged("worker", { ...env, WORKERS: "1" }),
    ]);
    running.push(first, second, worker);
    const starter = await connectClient(first.mcpUrl!);
    const follower = await connectClient(second.mcpUrl!);
    try {
      const { jobId } = await startJob(starter, { occasion: "holiday", budgetPerPerson: 50, csv: employeeCsv(500) });
      for (let afterSeq = 0, done = false; !done;) {
        const reply = await callTool(follower, TOOL.getJobEvents, { jobId, afterSeq, waitMs: 20_000 });
        const page = GetJobEventsOutput.parse(reply.structuredContent);
        [afterSeq, done] = [page.nextSeq, page.done];
      }
      const linesOf = (p: LoggedProcess) => p.records().filter((r) => r.jobId === jobId);
      await vi.waitFor(() => expect(linesOf(worker).map((r) => r.msg)).toContain("job ended"), { timeout: 10_000 });

      expect(
        linesOf(first)
          .filter((r) => r.level === "info")
          .map((r) => r.msg),
      ).toEqual(["job created"]);
      expect(
        linesOf(first)
          .filter((r) => r.msg === "request")
          .map((r) => r.tool),
      ).toContain(TOOL.startBulk);
      expect(
        linesOf(second)
          .filter((r) => r.msg === "request")
          .map((r) => r.tool),
      ).toContain(TOOL.getJobEvents);
      expect(linesOf(worker).map((r) => r.msg)).toEqual(["job started", "job ended"]);
      expect(linesOf(worker).at(-1)).toMatchObject({ role: "worker", outcome: "completed", level: "info" });
      const all = [first, second, worker].flatMap(linesOf);
      expect(new Set(all.map((r) => r.role))).toEqual(new Set(["server", "worker"]));
      const owners = new Set(all.filter((r) => r.subject !== undefined).map((r) => r.subject));
      expect(owners.size).toBe(1);
    } finally {
      await starter.close();
      await follower.close();
    }
  }, 200_000);
});
