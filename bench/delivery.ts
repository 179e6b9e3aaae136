/**
 * Event delivery latency: from the job system publishing an event (`jobs.onEvent`, stamped with
 * performance.now() by eventId) to a client over HTTP holding it, for a `get_job_events` long poll
 * (waitMs 20 s) against a client polling every second without waiting. Both follow the same jobs
 * of the real app (SQLite store) in this process; large jobs run one after another, so ~100 events
 * per job arrive spread over a second or more.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent } from "node:http";
import { serve } from "@hono/node-server";
import { GetJobEventsOutput, StartBulkOutput, TOOL } from "../shared/tools.js";
import { createApp } from "../server/app.js";
import { matchGifts } from "../server/gifts/matcher.js";
import { createJobService } from "../server/jobs/job-service.js";
import { createSqliteStore } from "../server/jobs/stores/sqlite.js";
import { callTool, createAgent } from "./mcp-http.js";
import { percentile, row, type BenchOptions, type BenchRow } from "./table.js";
import { employeeCsv } from "../test-kit/employee-csv.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows a job to its end: `waitMs` per call, `pauseMs` between calls. Pushes, for every event
 * but `job.created` (published before the client can know the job), the ms from publish to receipt.
 */
async function follow(
  url: URL,
  agent: Agent,
  jobId: string,
  waitMs: number,
  pauseMs: number,
  published: Map<string, number>,
  out: number[],
): Promise<void> {
  let afterSeq = 0;
  for (;;) {
    const page = await callTool(url, TOOL.getJobEvents, { jobId, afterSeq, waitMs }, GetJobEventsOutput, agent);
    const now = performance.now();
    for (const event of page.events) {
      const at = published.get(event.eventId);
      if (at === undefined || event.seq !== ++afterSeq)
        throw new Error(`event ${event.eventId} arrived out of order or was never published`);
      if (event.type !== "job.created") out.push(now - at);
    }
    if (page.done) {
      if (page.status !== "completed") throw new Error(`job ${jobId} ended ${page.status}`);
      return;
    }
    if (pauseMs > 0) await sleep(pauseMs);
  }
}

/** Rows: publish → receipt p95 and p50 for the long poll, beside the 1 s poller in the same run. */
export async function benchDelivery({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const jobCount = smoke ? 1 : quick ? 2 : 3;
  const rows = smoke ? 2_000 : quick ? 40_000 : 100_000;
  const dir = mkdtempSync(join(tmpdir(), "giftgenius-delivery-"));
  const jobs = createJobService({ store: createSqliteStore(join(dir, "jobs.db")), match: matchGifts });
  const published = new Map<string, number>();
  jobs.onEvent(({ event }) => published.set(event.eventId, performance.now()));
  const { app, close } = createApp({ jobs });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  const url = new URL(`http://127.0.0.1:${address.port}/mcp`);
  const agent = createAgent(4);
  const longPoll: number[] = [];
  const polled: number[] = [];
  try {
    for (let j = 0; j < jobCount; j++) {
      const csv = employeeCsv(rows, { seed: 100 + j });
      const { jobId } = await callTool(
        url,
        TOOL.startBulk,
        { csv, occasion: "farewell", budgetPerPerson: 40 },
        StartBulkOutput,
        agent,
      );
      const before = longPoll.length;
      await Promise.all([
        follow(url, agent, jobId, 20_000, 0, published, longPoll),
        follow(url, agent, jobId, 0, 1000, published, polled),
      ]);
      const expected = [...published.keys()].filter((id) => id.startsWith(`${jobId}:`)).length - 1;
      if (longPoll.length - before !== expected)
        throw new Error(`the long poll saw ${longPoll.length - before} of ${expected} events`);
    }
    if (polled.length !== longPoll.length)
      throw new Error(`the poller saw ${polled.length} events, the long poll ${longPoll.length}`);
  } finally {
    agent.destroy();
    await close();
    await jobs.close();
    if ("closeAllConnections" in server) server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
  longPoll.sort((a, b) => a - b);
  polled.sort((a, b) => a - b);
  const section = "delivery";
  const n = longPoll.length;
  const baselineName = "polling every 1 s";
  return [
    row({
      section,
      metric: `event → client p95 (${n} events)`,
      value: percentile(longPoll, 95),
      unit: "ms",
      baseline: percentile(polled, 95),
      baselineName,
      target: "< 50 ms",
      met: percentile(longPoll, 95) < 50,
    }),
    row({
      section,
      metric: "event → client p50",
      value: percentile(longPoll, 50),
      unit: "ms",
      baseline: percentile(polled, 50),
      baselineName,
      target: "–",
      met: null,
    }),
  ];
}
