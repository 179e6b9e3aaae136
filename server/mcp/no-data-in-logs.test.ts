/**
 * The server's logs never hold employee data: jobs whose CSV carries a marker name and interest
 * run over MCP (to a result, with malformed CSVs, and into store errors from a real Redis that fills
 * up mid-job and refuses a new job), everything the server hands its logs (both
 * onError hooks, formatted as console.error would, and the logger's own lines: the jobs' lines and
 * the faults, as JSON at every level) is kept, and the marker is in none of it.
 */
import type { ChildProcess } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Writable } from "node:stream";
import { inspect } from "node:util";
import { Redis } from "ioredis";
import { StartBulkOutput, TOOL } from "../../shared/tools.js";
import { PACE_META_KEY, pauseAtPace } from "../dev-pace.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createRedisStore } from "../jobs/stores/redis.js";
import { JobWatch } from "../observability/job-watch.js";
import { createLogger, errorFields } from "../observability/logger.js";
import { freePort, killRedis, startRedis } from "../../test-kit/servers/redis-server.js";
import {
  callTool,
  connectClient,
  postRaw,
  readJobHistory,
  startJob,
  startTestServer,
  toolError,
  untilJobProgress,
} from "../../test-kit/servers/test-server.js";

const NAME = "Quillon Markerby";
const INTEREST = "zephyrcraft";
const MARKERS = [NAME, "Quillon", "Markerby", INTEREST];

/** `rows` people, each named and interested with the markers; `broken` spoils some rows. */
function markedCsv(rows: number, broken = false): string {
  const lines = ["name,department,interests,budget"];
  for (let i = 0; i < rows; i++) {
    if (broken && i % 3 === 1)
      lines.push(`"${NAME} ${i},Sales,${INTEREST}`); // an unclosed quote
    else if (broken && i % 3 === 2) lines.push(`${NAME} ${i},Sales,${INTEREST};coffee,not-a-budget,extra`);
    else lines.push(`${NAME} ${i},Sales,${INTEREST};coffee,40`);
  }
  return `${lines.join("\n")}\n`;
}

/** The session id of a connected client, to send a raw request in its session. */
const sessionOf = (client: Client) => (client.transport as StreamableHTTPClientTransport).sessionId ?? "";

describe("what the server logs", () => {
  let redis: ChildProcess | undefined;
  afterAll(async () => {
    if (redis) await killRedis(redis);
  });

  it("holds no employee data, whatever happens to the jobs", async () => {
    const port = await freePort();
    // a Redis that evicts nothing to make room: once it is full, every write is refused
    redis = await startRedis(port, ["--maxmemory-policy", "noeviction"]);
    const logged: string[] = [];
    const print = (...parts: unknown[]) =>
      void logged.push(parts.map((p) => (typeof p === "string" ? p : inspect(p, { depth: Infinity }))).join(" "));
    // the process's logger as main.ts has it, at every level, its lines kept with the rest
    const destination = new Writable({ write: (chunk, _, done) => done(void logged.push(String(chunk))) });
    const logger = createLogger({ role: "server", level: "trace", destination });
    const log = (error: unknown, context = "unexpected error") => {
      print(context, error);
      logger.error({ ...errorFields(error), context }, context);
    };
    const jobs = createJobService({
      store: createRedisStore({ url: `redis://127.0.0.1:${port}`, keyPrefix: "logs:", onConnectionChange: print }),
      match: matchGifts,
      onError: (error, context) => log(error, `jobs: ${context}`),
      beforeSlice: pauseAtPace,
    });
    const watch = new JobWatch(jobs, logger);
    const server = await startTestServer({ jobs, onError: (error) => log(error), devPace: true });
    const client = await connectClient(server.mcpUrl);
    const START = { occasion: "holiday", budgetPerPerson: 50 };
    try {
      // a job that runs to its result, and one with spoiled rows, which are skipped
      for (const csv of [markedCsv(20), markedCsv(30, true)]) {
        const { jobId } = await startJob(client, { ...START, csv });
        await callTool(client, TOOL.waitForJob, { jobId, timeoutMs: 30_000 });
        expect((await readJobHistory(client, jobId)).events.at(-1)?.type).toBe("job.completed");
      }
      // CSVs refused at the start
      for (const csv of [`${NAME},${INTEREST}\n${NAME},x\n`, "name,department,interests\n", `\u0000${NAME}`]) {
        expect((await callTool(client, TOOL.startBulk, { ...START, csv })).isError).toBe(true);
      }
      // a request whose JSON breaks off in the middle of the list
      const csv = JSON.stringify(markedCsv(3));
      const broken = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"${TOOL.startBulk}","arguments":{"csv":${csv.slice(0, 60)}`;
      expect((await postRaw(server.mcpUrl, broken, { "mcp-session-id": sessionOf(client) })).status).toBe(400);
      // a job still running when Redis fills up: its writes are refused mid-job
      const slowed = await client.callTool({
        name: TOOL.startBulk,
        arguments: { ...START, csv: markedCsv(30_000) },
        _meta: { [PACE_META_KEY]: 20 },
      });
      const big = StartBulkOutput.parse(slowed.structuredContent);
      await untilJobProgress(client, big.jobId);
      // now Redis is full: it has less room than it already uses, and evicts nothing
      const admin = new Redis(`redis://127.0.0.1:${port}`);
      try {
        await admin.config("SET", "maxmemory", "1mb");
      } finally {
        admin.disconnect();
      }
      await vi.waitFor(() => expect(logged.some((line) => line.includes(big.jobId))).toBe(true), {
        timeout: 30_000,
      });
      // and a new job cannot be written either
      const refused = await callTool(client, TOOL.startBulk, { ...START, csv: markedCsv(1_000) });
      expect(toolError(refused).code).toBe("internal");
      expect(logged.some((line) => line.includes("OOM"))).toBe(true);
      // the job lines were written, by job id
      expect(logged.some((line) => line.includes(`"jobId":"${big.jobId}"`))).toBe(true);
    } finally {
      watch.stop();
      await client.close();
      await server.close();
    }
    console.log(`${logged.length} log entries, ${logged.join("").length} characters, checked for the markers`);
    for (const marker of MARKERS) expect(logged.filter((line) => line.includes(marker))).toEqual([]);
  }, 90_000);
});
