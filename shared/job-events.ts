/** The job-event contract, and the mapping between event types and MCP notification methods. */
import * as z from "zod/mini";
import { CurrencySchema } from "./money.js";

export const StageSchema = z.object({ id: z.string().check(z.minLength(1)), label: z.string() });
export type Stage = z.infer<typeof StageSchema>;

/** A pattern: zod's datetime format would cost the widget a third of a kilobyte gzipped. */
const ISO_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

const envelope = {
  eventId: z.string().check(z.minLength(1)),
  jobId: z.string().check(z.minLength(1)),
  seq: z.number().check(z.int(), z.gte(1)),
  timestamp: z.string().check(z.regex(ISO_DATETIME)),
};

const JobCreatedPayload = z.object({
  kind: z.string(),
  title: z.string(),
  stages: z.array(StageSchema),
  /** Absent from jobs created before currencies: US dollars. */
  currency: z.optional(CurrencySchema),
});
const JobStartedPayload = z.object({ summary: z.optional(z.string()) });
const JobProgressPayload = z.object({
  percentage: z.number().check(z.gte(0), z.lte(100)),
  stage: z.string().check(z.minLength(1)),
  stageLabel: z.optional(z.string()),
  message: z.optional(z.string()),
  etaSeconds: z.optional(z.number().check(z.gte(0))),
  processed: z.optional(z.number().check(z.int(), z.gte(0))),
  total: z.optional(z.number().check(z.int(), z.gte(0))),
});
const JobCompletedPayload = z.object({
  summary: z.string(),
  resultResourceId: z.string().check(z.minLength(1)),
  resultCount: z.optional(z.number().check(z.int(), z.gte(0))),
});
export const JobFailedPayload = z.object({
  code: z.string().check(z.minLength(1)),
  message: z.string(),
  hint: z.optional(z.string()),
  retryable: z.boolean(),
});
const JobCanceledPayload = z.object({ reason: z.optional(z.string()) });

/** Unknown fields are stripped at every level (zod's default), so what parses is exactly the contract. */
export const JobEventSchema = z.discriminatedUnion("type", [
  z.object({ ...envelope, type: z.literal("job.created"), payload: JobCreatedPayload }),
  z.object({ ...envelope, type: z.literal("job.started"), payload: JobStartedPayload }),
  z.object({ ...envelope, type: z.literal("job.progress"), payload: JobProgressPayload }),
  z.object({ ...envelope, type: z.literal("job.completed"), payload: JobCompletedPayload }),
  z.object({ ...envelope, type: z.literal("job.failed"), payload: JobFailedPayload }),
  z.object({ ...envelope, type: z.literal("job.canceled"), payload: JobCanceledPayload }),
]);
export type JobEvent = z.infer<typeof JobEventSchema>;
export type JobEventType = JobEvent["type"];
export type JobEventOf<T extends JobEventType> = Extract<JobEvent, { type: T }>;

export const isTerminalEvent = (e: JobEvent): boolean =>
  e.type === "job.completed" || e.type === "job.failed" || e.type === "job.canceled";

/** `job.progress` → `notifications/job/progress`, and likewise for every type. */
export type JobNotificationMethod = `notifications/job/${JobEventType extends `job.${infer S}` ? S : never}`;

export function notificationMethodFor(type: JobEventType): JobNotificationMethod {
  return `notifications/job/${type.slice(4)}` as JobNotificationMethod;
}

export function toNotification(event: JobEvent): { method: JobNotificationMethod; params: JobEvent } {
  return { method: notificationMethodFor(event.type), params: event };
}
