/** The public view of a job, folded from its events by job-reducer.ts: what tools return and the widget renders. */
import * as z from "zod/mini";
import { JobFailedPayload } from "./job-events.js";
import { CurrencySchema } from "./money.js";

export const JobStatusSchema = z.enum(["pending", "running", "completed", "failed", "canceled"]);
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const isFinished = (status: JobStatus): boolean =>
  status === "completed" || status === "failed" || status === "canceled";

/** Once ended nothing is active: completed makes all done; the stage a job failed or stopped in says so. */
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
  /** As `job.created` said; absent for older jobs (US dollars). */
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
