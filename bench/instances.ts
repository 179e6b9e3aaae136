/**
 * Several instances on Redis against one on SQLite, in the same run: two servers (WORKERS=0) and
 * a worker process (4 jobs at once) on one Redis, against one server on SQLite running its jobs
 * in process (4 at once). The same small jobs are started on the first instance and followed with
 * long polls on the second (on SQLite, on the one instance). Figures: event → client delay (p95,
 * p50; the event's timestamp is the writer's clock, the client's the same machine's), jobs per
 * second from the first start to the last end, and `get_job_events` req/s on a finished job with
 * the load split over both instances. Both sides are measured in rotating rounds, the latencies of
 * every round pooled and the medians of the rates kept.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { Redis } from "ioredis";
import { GetJobEventsOutput, StartBulkOutput, TOOL } from "../shared/tools.js";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../test-kit/redis.js";
import { startTarget, type Target } from "./children.js";
import { MCP_HEADERS, callTool, createAgent, parseRpcBody, toolCallBody } from "./mcp-http.js";
import { median, percentile, row, type BenchOptions, type BenchRow } from "./table.js";

const JOB_SLOTS = "4";
type Run = { latencies: number[]; jobsPerSecond: number; errors: string[]; finished: string };

/** How many jobs, how large, and how many run at once (the rest start as those end). */
type Load = { count: number; rows: number; atOnce: number };

/** Starts `count` jobs on `start`, `atOnce` at a time, and follows each on `follow` to its end. */
async function runJobs(start: URL, follow: URL, { count, rows, atOnce }: Load, agent: Agent): Promise<Run> {
  const args = { csv: employeeCsv(rows, { seed: 11 }), occasion: "holiday", budgetPerPerson: 40 };
  const latencies: number[] = [];
  const errors: string[] = [];
  let finished = "";
  let next = 0;
  const t0 = performance.now();
  const one = async () => {
    const { jobId } = await callTool(start, TOOL.startBulk, args, StartBulkOutput, agent);
    const since = Date.now();
    for (let afterSeq = 0; ;) {
      const page = await callTool(
        follow,
        TOOL.getJobEvents,
        { jobId, afterSeq, waitMs: 20_000 },
        GetJobEventsOutput,
        agent,
      );
      const now = Date.now();
      for (const event of page.events) {
        if (event.seq !== ++afterSeq) throw new Error(`job ${jobId}: event ${event.seq} where ${afterSeq} was due`);
        const at = Date.parse(event.timestamp);
        if (at >= since && event.type !== "job.created") latencies.push(now - at);
      }
      if (page.done) {
        if (page.status !== "completed") throw new Error(`job ${jobId} ended ${page.status}`);
        finished = jobId;
        return;
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(atOnce, count) }, async () => {
      while (next++ < count) await one().catch((error: unknown) => void errors.push(String(error)));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { latencies: latencies.sort((a, b) => a - b), jobsPerSecond: count / seconds, errors, finished };
}

/** Posts one JSON-RPC message in `session` (or to open one) and returns the response, its body read. */
async function rpc(url: URL, message: object, session?: string): Promise<{ session: string; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...MCP_HEADERS, ...(session === undefined ? {} : { "mcp-session-id": session }) },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status}: ${text.slice(0, 200)}`);
  return { session: session ?? response.headers.get("mcp-session-id") ?? "", text };
}

/**
 * A session opened on `start` and its notification stream (GET) on `listen`: `count` jobs of
 * `rows` rows started in the session one after another, each to its `completed` notification.
 * Returns, for every job notification but `job.created`, the ms from the event to the stream's reader.
 */
async function streamLatencies(start: URL, listen: URL, count: number, rows: number): Promise<number[]> {
  const clientInfo = { name: "bench", version: "1" };
  const params = { protocolVersion: MCP_HEADERS["mcp-protocol-version"], capabilities: {}, clientInfo };
  const { session } = await rpc(start, { id: 0, method: "initialize", params });
  await rpc(start, { method: "notifications/initialized" }, session);
  const stream = await fetch(listen, {
    headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": params.protocolVersion },
  });
  if (!stream.ok || stream.body === null) throw new Error(`the stream answered ${stream.status}`);
  const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader();
  const latencies: number[] = [];
  let buffer = "";
  /** Reads notifications until `jobId` completes. */
  const until = async (jobId: string) => {
    for (;;) {
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith("data: ")) continue;
        const { method, params: event } = JSON.parse(line.slice(6));
        if (!method.startsWith("notifications/job/") || event.jobId !== jobId) continue;
        if (event.type !== "job.created") latencies.push(Date.now() - Date.parse(event.timestamp));
        if (event.type === "job.completed") return;
        if (event.type === "job.failed" || event.type === "job.canceled") throw new Error(`job ${jobId} ${event.type}`);
      }
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended before job ${jobId} did`);
      buffer += value;
    }
  };
  const args = { csv: employeeCsv(rows, { seed: 12 }), occasion: "holiday", budgetPerPerson: 40 };
  try {
    for (let i = 1; i <= count; i++) {
      const { text } = await rpc(
        start,
        { id: i, method: "tools/call", params: { name: TOOL.startBulk, arguments: args } },
        session,
      );
      await until(StartBulkOutput.parse(parseRpcBody(text).result?.structuredContent).jobId);
    }
  } finally {
    await reader.cancel();
    await fetch(start, { method: "DELETE", headers: { ...MCP_HEADERS, "mcp-session-id": session } });
  }
  return latencies.sort((a, b) => a - b);
}

/** `get_job_events` on a finished job, the connections split over `urls`, all at once: total req/s. */
async function readsPerSecond(urls: URL[], jobId: string, seconds: number, connections: number): Promise<number> {
  const body = toolCallBody(TOOL.getJobEvents, { jobId });
  const runs = await Promise.all(
    urls.map((url) =>
      autocannon({
        url: url.href,
        method: "POST",
        headers: { ...MCP_HEADERS },
        body,
        connections: Math.max(1, Math.round(connections / urls.length)),
        duration: seconds,
        sampleInt: 100,
        timeout: 10,
        verifyBody: (b: string) => b.includes('"type":"job.completed"'),
      }),
    ),
  );
  return runs.reduce((sum, r) => sum + (r.requests.total - r.non2xx - r.mismatches) / r.duration, 0);
}

/** One side of the comparison: where jobs start, where they are followed, where their events are read. */
type Side = { start: URL; follow: URL; read: URL[] };
/** What one round measured on one side. */
type Round = {
  steady: number[];
  streamed: number[];
  burst: number[];
  jobsPerSecond: number;
  reads: number;
  errors: string[];
};

/** One round on `side`: jobs two at a time, a session's stream, a burst, then reads of a finished job. */
async function measureSide(
  side: Side,
  { steady, burst, seconds }: { steady: Load; burst: Load; seconds: number },
  agent: Agent,
): Promise<Round> {
  const steadyRun = await runJobs(side.start, side.follow, steady, agent);
  // a session lives on the instance that opened it; on Redis its jobs run on the worker
  const streamed = await streamLatencies(side.start, side.start, steady.count / 2, steady.rows);
  const burstRun = await runJobs(side.start, side.follow, burst, agent);
  const reads = await readsPerSecond(side.read, burstRun.finished, seconds, 20);
  return {
    steady: steadyRun.latencies,
    streamed,
    burst: burstRun.latencies,
    jobsPerSecond: burstRun.jobsPerSecond,
    reads,
    errors: [...steadyRun.errors, ...burstRun.errors],
  };
}

/** A side's rounds as one: every latency seen, the median of the rates. */
function merged(rounds: Round[]) {
  const all = (pick: (r: Round) => number[]) => rounds.flatMap(pick).sort((x, y) => x - y);
  return {
    rounds: rounds.length,
    steady: all((r) => r.steady),
    streamed: all((r) => r.streamed),
    burst: all((r) => r.burst),
    jobsPerSecond: median(rounds.map((r) => r.jobsPerSecond)),
    reads: median(rounds.map((r) => r.reads)),
    errors: rounds.flatMap((r) => r.errors),
  };
}

/**
 * Rows: event → client p95 and p50 while jobs run two at a time (as the delivery section follows
 * jobs one after another), the same p95 and jobs/s under a burst of jobs all started at once,
 * get_job_events req/s, Redis against SQLite, and errors.
 */
export async function benchInstances({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  if ((await redisUnreachable("the instances benchmark")) !== undefined) return [];
  const jobs = smoke ? 4 : quick ? 40 : 120;
  const steady: Load = { count: smoke ? 2 : quick ? 6 : 20, rows: 2_000, atOnce: 2 };
  const burst: Load = { count: jobs, rows: 50, atOnce: jobs };
  const seconds = smoke ? 0.3 : quick ? 2 : 5;
  const prefix = `giftgenius-bench:${randomUUID()}:`;
  const dir = mkdtempSync(join(tmpdir(), "giftgenius-bench-"));
  // every benchmark client is the same anonymous subject: no per-subject quota may stop it
  const unlimited = { QUOTA_UNFINISHED_JOBS: "1000000", QUOTA_JOBS_PER_HOUR: "1000000" };
  const redis = { STORE: "redis", REDIS_URL: redisUrl, REDIS_PREFIX: prefix, ...unlimited };
  const targets: Target[] = [];
  const agent = createAgent(2 * jobs + 8);
  const admin = new Redis(redisUrl);
  try {
    const up = async (name: string, env: Record<string, string>) => {
      const t = await startTarget(name, env);
      targets.push(t);
      return t;
    };
    const [a, b, single] = await Promise.all([
      up("instance", { ...redis, WORKERS: "0" }),
      up("instance", { ...redis, WORKERS: "0" }),
      up("instance", { STORE: "sqlite", DATA_DIR: dir, ...unlimited }),
      up("worker", { ...redis, WORKERS: JOB_SLOTS }),
    ]);
    // one warm-up job each, so that neither side pays for its first compile in the figures
    const warmUp: Load = { count: 2, rows: 50, atOnce: 2 };
    await runJobs(a.url, b.url, warmUp, agent);
    await runJobs(single.url, single.url, warmUp, agent);
    const sides: Side[] = [
      { start: a.url, follow: b.url, read: [a.url, b.url] },
      { start: single.url, follow: single.url, read: [single.url] },
    ];
    // rotating rounds: each side measured once a round, the order turned each round, so that a
    // noisy moment of the machine falls on neither side alone
    const rounds: Round[][] = [[], []];
    for (let r = 0; r < (smoke ? 1 : quick ? 2 : 3); r++)
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0])
        rounds[i].push(await measureSide(sides[i], { steady, burst, seconds }, agent));
    const [shared, alone] = rounds.map(merged);
    const errors = [...shared.errors, ...alone.errors];
    if (errors.length > 0) throw new Error(`${errors.length} jobs failed: ${errors[0]}`);
    const section = "instances";
    const p95 = percentile(shared.steady, 95);
    return [
      row({
        section,
        metric: `event → client p95, start on A, long poll on B, ${steady.count} jobs of ${steady.rows} rows, 2 at once (${shared.steady.length} events, ${shared.rounds} rounds)`,
        value: p95,
        unit: "ms",
        baseline: percentile(alone.steady, 95),
        baselineName: "one instance, SQLite",
        // as within one process (the delivery section)
        target: "< 50 ms",
        met: p95 < 50,
      }),
      row({
        section,
        metric: "event → client p50, across instances, 2 jobs at once",
        value: percentile(shared.steady, 50),
        unit: "ms",
        baseline: percentile(alone.steady, 50),
        baselineName: "one instance, SQLite",
        target: "–",
        met: null,
      }),
      row({
        section,
        metric: `notification → client p95, session and its stream (GET) on A, jobs run by the worker, ${steady.count / 2} jobs one after another (${shared.streamed.length} events)`,
        value: percentile(shared.streamed, 95),
        unit: "ms",
        baseline: percentile(alone.streamed, 95),
        baselineName: "one instance, SQLite",
        target: "< 50 ms",
        met: percentile(shared.streamed, 95) < 50,
      }),
      row({
        section,
        metric: `event → client p95 under a burst: ${jobs} jobs started at once (${shared.burst.length} events)`,
        value: percentile(shared.burst, 95),
        unit: "ms",
        baseline: percentile(alone.burst, 95),
        baselineName: "one instance, SQLite",
        target: "–",
        met: null,
      }),
      row({
        section,
        metric: `jobs/s, ${jobs} jobs of 50 rows, 2 instances + 1 worker on Redis`,
        value: shared.jobsPerSecond,
        unit: "jobs/s",
        baseline: alone.jobsPerSecond,
        baselineName: "one instance, SQLite",
        target: "≥ 1.6×",
        met: shared.jobsPerSecond >= 1.6 * alone.jobsPerSecond,
      }),
      row({
        section,
        metric: "get_job_events req/s, 2 instances on Redis",
        value: shared.reads,
        unit: "req/s",
        baseline: alone.reads,
        baselineName: "one instance, SQLite",
        target: "≥ 1.3×",
        met: shared.reads >= 1.3 * alone.reads,
      }),
      row({
        section,
        metric: "errors",
        value: errors.length,
        unit: "",
        baseline: null,
        baselineName: "",
        target: "0",
        met: errors.length === 0,
      }),
    ];
  } finally {
    agent.destroy();
    await Promise.all(targets.map((t) => t.stop()));
    await deleteKeysUnder(admin, prefix);
    await admin.quit();
    rmSync(dir, { recursive: true, force: true });
  }
}
