/**
 * Reducer throughput and retained memory: one million events over 100 jobs, with 10 % duplicates
 * and 5 % local reordering, applied by our reducer, by the naive handler from the event-model lesson
 * (a Set of every eventId seen plus object spreads), and by a bare loop (the floor).
 */
import { applyJobEvent, createJobFold, type JobFold } from "../shared/job-reducer.js";
import type { JobEvent } from "../shared/job-events.js";
import { seededRandom } from "../shared/seeded-random.js";
import { jobHistory } from "../test-kit/job-events.js";
import { bestInTurns } from "./rounds.js";
import { row, type BenchOptions, type BenchRow } from "./table.js";

const STAGES = ["parse", "extract", "match", "compose"].map((id) => ({ id, label: id }));

/** Events of `jobs` jobs, interleaved at random, with duplicates and local reordering. */
function generateStream(total: number, jobs: number, seed = 7): JobEvent[] {
  const rand = seededRandom(seed);
  const perJob = Math.floor(total / 1.1 / jobs);
  // perJob events a job: created, started, progress, completed
  const histories = Array.from({ length: jobs }, (_, j) =>
    jobHistory(`job_${j}`, { stages: STAGES, progress: perJob - 3, top: 100 }),
  );
  const cursors = new Array(jobs).fill(0);
  const live = Array.from({ length: jobs }, (_, j) => j);
  const out: JobEvent[] = [];
  while (live.length > 0) {
    const k = Math.floor(rand() * live.length);
    const j = live[k];
    out.push(histories[j][cursors[j]++]);
    if (cursors[j] === histories[j].length) live.splice(k, 1);
  }
  const withDups: JobEvent[] = [];
  for (const e of out) {
    withDups.push(e);
    if (rand() < 0.1) withDups.push(structuredClone(e)); // a resend is a new object with the same eventId
  }
  for (let i = 0; i < withDups.length; i++) {
    if (rand() < 0.05) {
      const k = Math.min(withDups.length - 1, i + 1 + Math.floor(rand() * 20));
      [withDups[i], withDups[k]] = [withDups[k], withDups[i]];
    }
  }
  // as a client receives them: parsed from JSON, so events of a type share one object shape
  return JSON.parse(JSON.stringify(withDups)) as JobEvent[];
}

function runOurs(events: JobEvent[]): Map<string, JobFold> {
  const views = new Map<string, JobFold>();
  for (const e of events) {
    const v = views.get(e.jobId) ?? createJobFold(e.jobId);
    const next = applyJobEvent(v, e);
    if (next !== v || !views.has(e.jobId)) views.set(e.jobId, next);
  }
  return views;
}

type NaiveJob = { jobId: string; status: string; percentage: number; stage: string | null; resultResourceId?: string };
function runNaive(events: JobEvent[]): { processed: Set<string>; jobs: Map<string, NaiveJob> } {
  const processed = new Set<string>();
  const jobs = new Map<string, NaiveJob>();
  for (const e of events) {
    if (processed.has(e.eventId)) continue;
    processed.add(e.eventId);
    const job = jobs.get(e.jobId) ?? { jobId: e.jobId, status: "pending", percentage: 0, stage: null };
    if (e.type === "job.progress")
      jobs.set(e.jobId, { ...job, status: "running", percentage: e.payload.percentage, stage: e.payload.stage });
    else if (e.type === "job.completed")
      jobs.set(e.jobId, { ...job, status: "completed", percentage: 100, resultResourceId: e.payload.resultResourceId });
    else if (e.type === "job.started") jobs.set(e.jobId, { ...job, status: "running" });
    else jobs.set(e.jobId, { ...job });
  }
  return { processed, jobs };
}

function runFloor(events: JobEvent[]): number {
  let acc = 0;
  for (const e of events) acc += e.seq + (e.type === "job.progress" ? e.payload.percentage : 0);
  return acc;
}

function retainedBytes<T>(build: () => T): { bytes: number; keep: T } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run the benchmarks with node --expose-gc");
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const keep = build();
  gc();
  gc();
  return { bytes: process.memoryUsage().heapUsed - before, keep };
}

export async function benchReducer({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const total = smoke ? 20_000 : quick ? 200_000 : 1_000_000;
  const jobs = 100;
  const events = generateStream(total, jobs);
  const runs = smoke ? 1 : quick ? 3 : 5;
  const reduced = { naive: runNaive(events), ours: runOurs(events) };
  const [floor, naive, ours] = (
    await bestInTurns(runs, [() => runFloor(events), () => runNaive(events), () => runOurs(events)])
  ).map((ms) => ({ perSec: events.length / (ms / 1000) }));
  for (const v of reduced.ours.values()) {
    if (v.status !== "completed" || v.percentage !== 100 || v.stages.some((s) => s.state !== "done"))
      throw new Error(`reducer left ${v.jobId} ${v.status}`);
  }
  if (reduced.naive.jobs.size !== jobs || reduced.ours.size !== jobs) throw new Error("not every job was reduced");

  const oursMem = retainedBytes(() => runOurs(events));
  const naiveMem = retainedBytes(() => runNaive(events));
  const small = generateStream(total / 10, jobs, 11);
  const oursSmallMem = retainedBytes(() => runOurs(small));
  const perJob = (b: number) => Math.max(0, b) / jobs;
  void oursMem.keep.size;
  void naiveMem.keep.jobs.size;
  void oursSmallMem.keep.size;

  const section = "reducer";
  const n = events.length.toLocaleString("en-US");
  return [
    row({
      section,
      metric: `events/s (${n} events)`,
      value: ours.perSec,
      unit: "ev/s",
      baseline: naive.perSec,
      baselineName: "naive Set+spread",
      target: "≥ 5×",
      met: ours.perSec / naive.perSec >= 5,
    }),
    row({
      section,
      metric: "events/s vs the floor",
      value: ours.perSec,
      unit: "ev/s",
      baseline: floor.perSec,
      baselineName: "bare loop",
      target: "≥ 0.5× (within 2×)",
      met: ours.perSec / floor.perSec >= 0.5,
    }),
    row({
      section,
      metric: "heap retained per job",
      value: perJob(oursMem.bytes),
      unit: "B",
      baseline: perJob(naiveMem.bytes),
      baselineName: "naive Set+spread",
      target: "constant in events",
      met: null,
    }),
    row({
      section,
      metric: "heap per job, 10× fewer events",
      value: perJob(oursSmallMem.bytes),
      unit: "B",
      baseline: perJob(oursMem.bytes),
      baselineName: `ours at ${n}`,
      target: "ratio ≈ 1",
      met: Math.abs(perJob(oursSmallMem.bytes) - perJob(oursMem.bytes)) < 2048,
    }),
  ];
}
