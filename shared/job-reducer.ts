/**
 * The one reducer for job events: a pure, order-insensitive join of a job's events into a view.
 * Every field is a function of the *set* of distinct events, so duplicates and any reordering
 * end in the same view. No React, no zustand, no I/O: server and widget run this very code.
 */
import type { JobEvent, Stage } from "./job-events.js";

export type JobStatus = "pending" | "running" | "completed" | "failed" | "canceled";
export type StageState = "pending" | "active" | "done";
export type StageView = { id: string; label: string; state: StageState };
export type JobError = { code: string; message: string; hint?: string; retryable: boolean };
/** A stage named by a progress event: the lowest seq that named it, and that event's label. */
type SeenStage = { id: string; seq: number; label: string };

export type JobView = {
  jobId: string;
  kind: string | null;
  title: string | null;
  status: JobStatus;
  /** 0–100, never decreases; 100 once any `job.completed` was seen. */
  percentage: number;
  /** Stage id, label, message, counts and ETA of the progress event with the highest seq. */
  stage: string | null;
  stageLabel: string | null;
  message: string | null;
  processed: number | null;
  total: number | null;
  etaSeconds: number | null;
  /** The plan in order, then stages seen only in progress events, by the lowest seq naming them. */
  stages: StageView[];
  summary: string | null;
  resultResourceId: string | null;
  resultCount: number | null;
  error: JobError | null;
  cancelReason: string | null;
  createdAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string | null;
  /** Highest seq applied. */
  lastSeq: number;
  // Bookkeeping that keeps the join order-insensitive; its size depends on the stages only.
  // The *Seq fields hold the seq of the event that set them; 0 means none yet.
  plan: Stage[] | null;
  seen: SeenStage[];
  createdSeq: number;
  startedSeq: number;
  progressSeq: number;
  terminalSeq: number;
};

export const TERMINAL_STATUSES: readonly JobStatus[] = ["completed", "failed", "canceled"];
export const isTerminalStatus = (s: JobStatus): boolean => s === "completed" || s === "failed" || s === "canceled";

/** True when `seq` is lower than the min-seq field `current` (0: no such event yet; JSON-safe). */
const lower = (seq: number, current: number): boolean => current === 0 || seq < current;

export function createJobView(jobId: string): JobView {
  return {
    jobId, kind: null, title: null, status: "pending", percentage: 0,
    stage: null, stageLabel: null, message: null, processed: null, total: null, etaSeconds: null,
    stages: [], summary: null, resultResourceId: null, resultCount: null, error: null, cancelReason: null,
    createdAt: null, startedAt: null, finishedAt: null, updatedAt: null, lastSeq: 0,
    plan: null, seen: [], createdSeq: 0, startedSeq: 0, progressSeq: 0, terminalSeq: 0,
  };
}

/** Applies one event. Returns the same object when the event changes nothing. */
export function applyJobEvent(view: JobView, event: JobEvent): JobView {
  if (event.jobId !== view.jobId) return view;
  const patch: Partial<JobView> = {};
  if (event.seq > view.lastSeq) {
    patch.lastSeq = event.seq;
    patch.updatedAt = event.timestamp;
  }
  switch (event.type) {
    case "job.created":
      if (lower(event.seq, view.createdSeq)) {
        patch.createdSeq = event.seq;
        patch.kind = event.payload.kind;
        patch.title = event.payload.title;
        patch.plan = event.payload.stages;
        patch.createdAt = event.timestamp;
      }
      break;
    case "job.started":
      if (lower(event.seq, view.startedSeq)) {
        patch.startedSeq = event.seq;
        patch.startedAt = event.timestamp;
      }
      break;
    case "job.progress": {
      const p = event.payload;
      if (p.percentage > view.percentage) patch.percentage = p.percentage;
      if (event.seq > view.progressSeq) {
        patch.progressSeq = event.seq;
        patch.stage = p.stage;
        patch.stageLabel = p.stageLabel ?? null;
        patch.message = p.message ?? null;
        patch.processed = p.processed ?? null;
        patch.total = p.total ?? null;
        patch.etaSeconds = p.etaSeconds ?? null;
      }
      const seen = noteStage(view.seen, p.stage, event.seq, p.stageLabel ?? p.stage);
      if (seen !== view.seen) patch.seen = seen;
      break;
    }
    case "job.completed":
    case "job.failed":
    case "job.canceled":
      // completed means 100 %, even when it loses to an earlier terminal event
      if (event.type === "job.completed" && view.percentage < 100) patch.percentage = 100;
      if (lower(event.seq, view.terminalSeq)) Object.assign(patch, terminalFields(event));
      break;
    default: {
      const never: never = event;
      return never;
    }
  }
  for (const key in patch) {
    if (patch[key as keyof JobView] !== view[key as keyof JobView]) return settle(view, patch);
  }
  return view;
}

/** Applies a batch in any order; returns the same object when nothing changed. */
export function applyJobEvents(view: JobView, events: Iterable<JobEvent>): JobView {
  let v = view;
  for (const e of events) v = applyJobEvent(v, e);
  return v;
}

function terminalFields(event: Extract<JobEvent, { type: "job.completed" | "job.failed" | "job.canceled" }>): Partial<JobView> {
  const base = { terminalSeq: event.seq, finishedAt: event.timestamp, summary: null, resultResourceId: null, resultCount: null, error: null, cancelReason: null };
  switch (event.type) {
    case "job.completed":
      return { ...base, status: "completed", summary: event.payload.summary, resultResourceId: event.payload.resultResourceId, resultCount: event.payload.resultCount ?? null };
    case "job.failed":
      return { ...base, status: "failed", error: { ...event.payload } };
    case "job.canceled":
      return { ...base, status: "canceled", cancelReason: event.payload.reason ?? null };
  }
}

/** Records that `id` was named at `seq`; returns the same array when that changes nothing. */
function noteStage(seen: SeenStage[], id: string, seq: number, label: string): SeenStage[] {
  const i = seen.findIndex((s) => s.id === id);
  if (i === -1) return [...seen, { id, seq, label }];
  if (seq >= seen[i].seq) return seen;
  const next = seen.slice();
  next[i] = { id, seq, label };
  return next;
}

/** Builds the next view from a patch: status and stage states are derived, never stored twice. */
function settle(view: JobView, patch: Partial<JobView>): JobView {
  const next = { ...view, ...patch };
  if (next.terminalSeq === 0) {
    next.status = next.startedSeq !== 0 || next.progressSeq > 0 ? "running" : "pending";
  }
  if (next.status !== view.status || next.stage !== view.stage || next.plan !== view.plan || next.seen !== view.seen) {
    next.stages = deriveStages(next);
  }
  return next;
}

function deriveStages(v: JobView): StageView[] {
  const plan = v.plan ?? [];
  const extra = v.seen.filter((s) => !plan.some((p) => p.id === s.id)).sort((a, b) => a.seq - b.seq);
  const all = [...plan, ...extra];
  const current = v.stage === null ? -1 : all.findIndex((s) => s.id === v.stage);
  return all.map((s, i): StageView => ({
    id: s.id,
    label: s.label,
    state: v.status === "completed" || i < current ? "done" : i === current ? "active" : "pending",
  }));
}
