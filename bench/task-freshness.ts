/**
 * Task status freshness: how long after a job event is appended (`jobs.onEvent`, stamped with
 * performance.now()) a client that declared the Tasks extension first reads it in `tasks/get`,
 * polling back to back (one request in flight) from the start's own answer on. The app runs in this
 * process on SQLite, as in delivery.ts, so events and reads share one clock. A read shows at best
 * what the store held when it was served, so each figure includes up to one round trip of the
 * poll: the round trip is the baseline.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import * as z from "zod/mini";
import { toJobView } from "../shared/job-reducer.js";
import { TOOL } from "../shared/tools.js";
import { createApp } from "../server/app.js";
import { matchGifts } from "../server/gifts/matcher.js";
import type { JobEventNotice } from "../server/jobs/job-log.js";
import { createJobService } from "../server/jobs/job-service.js";
import { createSqliteStore } from "../server/jobs/stores/sqlite.js";
import { taskOf } from "../server/mcp/modern/tasks.js";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { requestModern, withTasks } from "../test-kit/modern-client.js";
import { percentile, row, type BenchOptions, type BenchRow } from "./table.js";

/** The part of a task that says how far it got. */
const TaskStatus = z.object({
  taskId: z.string(),
  status: z.string(),
  statusMessage: z.optional(z.string()),
  lastUpdatedAt: z.string(),
});
type TaskStatus = z.infer<typeof TaskStatus>;

/** A status as an event left it or as a read showed it, and when (performance.now()). */
export type Stamped = { at: number; key: string };

const statusKey = (t: Omit<TaskStatus, "taskId">): string =>
  JSON.stringify([t.status, t.statusMessage ?? null, t.lastUpdatedAt]);

/**
 * For every event but the first (the job's creation, appended before the client can know the
 * task), the ms from its append to the first read at or after it that shows its status or a later
 * one. Events appended together leave one status, the last one's, so the key of a read stands for
 * the latest event that left it. A read no event explains, or an event never read, is an error.
 */
export function staleness(events: Stamped[], reads: Stamped[]): number[] {
  const latest = new Map<string, number>();
  events.forEach((e, i) => latest.set(e.key, i));
  const unexplained = reads.find((r) => !latest.has(r.key));
  if (unexplained) throw new Error(`tasks/get showed a status no event left: ${unexplained.key}`);
  return events.slice(1).map((e, k) => {
    const read = reads.find((r) => r.at >= e.at && latest.get(r.key)! > k);
    if (!read) throw new Error(`the status after event ${k + 2} of ${events.length} was never read`);
    return read.at - e.at;
  });
}

async function readTask(url: URL, method: string, params: Record<string, unknown>): Promise<TaskStatus> {
  const reply = await requestModern(url, method, params, { capabilities: withTasks });
  if (reply.error) throw new Error(`${method} answered ${reply.error.code}: ${reply.error.message}`);
  return TaskStatus.parse(reply.result);
}

/** Starts the analysis as a task and reads its status back to back until it ends. */
async function followTask(url: URL, csv: string, reads: Stamped[], roundTrips: number[]): Promise<string> {
  const args = { csv, occasion: "holiday", budgetPerPerson: 50 };
  const created = await readTask(url, "tools/call", { name: TOOL.startBulk, arguments: args });
  reads.push({ at: performance.now(), key: statusKey(created) });
  for (let task = created; task.status === "working";) {
    const sent = performance.now();
    task = await readTask(url, "tasks/get", { taskId: created.taskId });
    const at = performance.now();
    roundTrips.push(at - sent);
    reads.push({ at, key: statusKey(task) });
    if (task.status !== "working" && task.status !== "completed")
      throw new Error(`task ${created.taskId} ended ${task.status}`);
  }
  return created.taskId;
}

type Appended = JobEventNotice & { at: number };

/** The status each event of the job left, in order. */
const eventStatuses = (appended: Appended[], jobId: string, ttlMs: number): Stamped[] =>
  appended
    .filter((n) => n.event.jobId === jobId)
    .map((n) => ({ at: n.at, key: statusKey(taskOf(toJobView(n.fold), ttlMs)) }));

/** Rows: event → task status p95 and p50, beside the poll's round trip in the same run. */
export async function benchTaskFreshness({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const jobCount = smoke ? 1 : quick ? 2 : 3;
  const rows = smoke ? 300 : 5_000;
  const dir = mkdtempSync(join(tmpdir(), "giftgenius-tasks-"));
  const jobs = createJobService({ store: createSqliteStore(join(dir, "jobs.db")), match: matchGifts });
  const appended: Appended[] = [];
  jobs.onEvent((notice) => appended.push({ ...notice, at: performance.now() }));
  const { app, close } = createApp({ jobs });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  const url = new URL(`http://127.0.0.1:${address.port}/mcp`);
  const stale: number[] = [];
  const roundTrips: number[] = [];
  try {
    for (let j = 0; j < jobCount; j++) {
      const reads: Stamped[] = [];
      const taskId = await followTask(url, employeeCsv(rows, { seed: 200 + j }), reads, roundTrips);
      stale.push(...staleness(eventStatuses(appended, taskId, jobs.limits.retentionMs), reads));
    }
  } finally {
    await close();
    await jobs.close();
    if ("closeAllConnections" in server) server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
  stale.sort((a, b) => a - b);
  roundTrips.sort((a, b) => a - b);
  const section = "tasks";
  const baselineName = "tasks/get round trip";
  const n = rows.toLocaleString("en-US");
  return [
    row({
      section,
      metric: `event → tasks/get status p95 (${stale.length} events, ${n}-row jobs)`,
      value: percentile(stale, 95),
      unit: "ms",
      baseline: percentile(roundTrips, 95),
      baselineName: `${baselineName} p95`,
      target: "< 50 ms",
      met: percentile(stale, 95) < 50,
    }),
    row({
      section,
      metric: "event → tasks/get status p50",
      value: percentile(stale, 50),
      unit: "ms",
      baseline: percentile(roundTrips, 50),
      baselineName: `${baselineName} p50`,
      target: "–",
      met: null,
    }),
  ];
}
