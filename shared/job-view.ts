/**
 * The public view of a job: what tools return, what the model reads and what the widget renders,
 * derived from the job's events by the reducer (job-reducer.ts) and holding none of its bookkeeping.
 */
import * as z from "zod/mini";
import { JobFailedPayload } from "./job-events.js";
import { CurrencySchema } from "./money.js";

export const JobStatusSchema = z.enum(["pending", "running", "completed", "failed", "canceled"]);
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** True once a job has ended; nothing changes its outcome after that. */
export const isFinished = (status: JobStatus): boolean =>
  status === "completed" || status === "failed" || status === "canceled";

/**
 * A stage's state: done, active (the current one) or pending. Once ended nothing is active:
 * completed makes all done; the stage a job failed or was canceled in (the first when no progress
 * named one) is `failed` or `stopped`, those before it done, those after it pending.
 */
const StageViewSchema = z.object({
  id: z.string(),
  label: z.string(),
  state: z.enum(["pending", "active", "done", "failed", "stopped"]),
});
export type StageView = z.infer<typeof StageViewSchema>;

export const JobViewSchema = z.object({
  jobId: z.string(),
  kind: z.nullable(z.string()),
  title: z.nullable(z.string()),
  /** The currency of the job's budgets and prices, as `job.created` said; absent for older jobs (US dollars). */
  currency: z.optional(CurrencySchema),
  status: JobStatusSchema,
  /** 0–100, never decreases; 100 once any `job.completed` was seen. */
  percentage: z.number(),
  /** Stage id, label, message, counts and ETA of the progress event with the highest seq. */
  stage: z.nullable(z.string()),
  stageLabel: z.nullable(z.string()),
  message: z.nullable(z.string()),
  processed: z.nullable(z.number()),
  total: z.nullable(z.number()),
  etaSeconds: z.nullable(z.number()),
  /** The plan in order, then stages seen only in progress events, by the lowest seq naming them. */
  stages: z.array(StageViewSchema),
  summary: z.nullable(z.string()),
  resultResourceId: z.nullable(z.string()),
  resultCount: z.nullable(z.number()),
  error: z.nullable(JobFailedPayload),
  cancelReason: z.nullable(z.string()),
  createdAt: z.nullable(z.string()),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  updatedAt: z.nullable(z.string()),
});
export type JobView = z.infer<typeof JobViewSchema>;
