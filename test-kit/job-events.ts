/**
 * Job events for tests and benchmarks, built one way: the envelope the server writes (eventId
 * `jobId:seq`, one second per seq), one event of any type with a realistic payload, and whole
 * histories from job.created to their ending with progress spread over the stages.
 */
import * as z from "zod/mini";
import {
  JobEventSchema,
  notificationMethodFor,
  type JobEvent,
  type JobEventOf,
  type JobEventType,
  type Stage,
} from "../shared/job-events.js";
import { URI } from "../shared/tools.js";

/** The time of seq 0: event `seq` of any history is `seq` seconds later. */
const T0 = Date.parse("2026-03-01T09:00:00.000Z");

/** The plan a job announces unless told otherwise. */
export const DEFAULT_STAGES: Stage[] = [
  { id: "parse", label: "Parsing the employee list" },
  { id: "match", label: "Matching gifts per person" },
  { id: "write", label: "Writing the result" },
];

export type Envelope = Pick<JobEvent, "eventId" | "jobId" | "seq" | "timestamp">;
/** The payload of events of type `T`. */
export type PayloadOf<T extends JobEventType> = JobEventOf<T>["payload"];

/** Every event type, read from the schema's members, so no list of types is written twice. */
export const JOB_EVENT_TYPES: readonly JobEventType[] = JobEventSchema.def.options.map(
  (o) => o.shape.type.def.values[0],
);

/** The event type a job notification method carries (`notifications/job/progress` → `job.progress`). */
export function eventTypeForMethod(method: string): JobEventType | undefined {
  return JOB_EVENT_TYPES.find((type) => notificationMethodFor(type) === method);
}

/** Parses a batch that came over a boundary: malformed events are `rejected` with their issues. */
export function parseJobEvents(input: unknown): { events: JobEvent[]; rejected: { index: number; error: string }[] } {
  const events: JobEvent[] = [];
  const rejected: { index: number; error: string }[] = [];
  if (!Array.isArray(input)) return { events, rejected: [{ index: -1, error: "expected an array of events" }] };
  input.forEach((raw, index) => {
    const r = JobEventSchema.safeParse(raw);
    if (r.success) events.push(r.data);
    else rejected.push({ index, error: z.prettifyError(r.error) });
  });
  return { events, rejected };
}

/** The envelope of event `seq` of `jobId`, as the server's job log writes it. */
export function envelope(jobId: string, seq: number): Envelope {
  return { eventId: `${jobId}:${seq}`, jobId, seq, timestamp: new Date(T0 + seq * 1000).toISOString() };
}

/** The usual payload of each type, for a job. */
const USUAL: { [T in JobEventType]: (jobId: string) => PayloadOf<T> } = {
  "job.created": () => ({ kind: "bulk", title: "Holiday gifts", stages: DEFAULT_STAGES }),
  "job.started": () => ({}),
  "job.progress": () => ({ percentage: 50, stage: DEFAULT_STAGES[0].id }),
  "job.completed": (jobId) => ({
    summary: "Gifts found for 3 people.",
    resultResourceId: URI.jobResult(jobId),
    resultCount: 3,
  }),
  "job.failed": () => ({
    code: "catalog_down",
    message: "The gift catalog is unavailable.",
    hint: "Try again in a minute.",
    retryable: true,
  }),
  "job.canceled": () => ({ reason: "user" }),
};

/** Event `seq` of `jobId` of `type`: the type's usual payload, with the fields of `payload` over it. */
export function jobEvent<T extends JobEventType>(
  jobId: string,
  seq: number,
  type: T,
  payload: Partial<PayloadOf<T>> = {},
): JobEventOf<T> {
  // one literal and one assign, not spreads: histories of 100,000 events are built in tests
  const { eventId, timestamp } = envelope(jobId, seq);
  const event = { eventId, jobId, seq, timestamp, type, payload: Object.assign(USUAL[type](jobId), payload) };
  return event as unknown as JobEventOf<T>; // TypeScript cannot pair a generic type with its payload
}

/** How a history ends: with one terminal event, or still running. */
export type Ending = "completed" | "failed" | "canceled" | "running";

export type HistoryPlan = {
  /** The plan job.created announces; DEFAULT_STAGES unless given. */
  stages?: Stage[];
  /** job.created's title. */
  title?: string;
  /** Whether job.started follows job.created (it does unless false). */
  started?: boolean;
  /** How many progress events; three per stage unless given. */
  progress?: number;
  /** How many steps the whole job has (progress event i is step i of them); `progress` unless given. */
  steps?: number;
  /** The percentage of the last step; 95 unless given (job.completed brings 100). */
  top?: number;
  /** Seconds of ETA per step left; 2 unless given, null for progress without ETA. */
  etaPerStep?: number | null;
  /** "completed" unless given. */
  ending?: Ending;
  /** Fields of the job.failed payload over its usual one. */
  failure?: Partial<PayloadOf<"job.failed">>;
};

/**
 * A gapless history of `jobId`: job.created, job.started, progress through the stages in plan
 * order with a rising percentage, processed and total counts, then the ending's terminal event.
 */
export function jobHistory(jobId: string, plan: HistoryPlan = {}): JobEvent[] {
  const stages = plan.stages ?? DEFAULT_STAGES;
  const count = plan.progress ?? stages.length * 3;
  const steps = plan.steps ?? count;
  const top = plan.top ?? 95;
  const etaPerStep = plan.etaPerStep === undefined ? 2 : plan.etaPerStep;
  const ending = plan.ending ?? "completed";
  const events: JobEvent[] = [];
  const next = () => events.length + 1;
  events.push(
    jobEvent(jobId, next(), "job.created", { stages, ...(plan.title === undefined ? {} : { title: plan.title }) }),
  );
  if (plan.started !== false) events.push(jobEvent(jobId, next(), "job.started"));
  for (let i = 1; i <= count; i++) {
    const stage = stages[Math.min(stages.length - 1, Math.floor(((i - 1) * stages.length) / steps))];
    events.push(
      jobEvent(jobId, next(), "job.progress", {
        percentage: Math.round((i * top) / steps),
        stage: stage.id,
        stageLabel: stage.label,
        ...(etaPerStep === null ? {} : { etaSeconds: (steps - i) * etaPerStep }),
        processed: i,
        total: steps,
      }),
    );
  }
  if (ending === "completed") events.push(jobEvent(jobId, next(), "job.completed"));
  if (ending === "failed") events.push(jobEvent(jobId, next(), "job.failed", plan.failure));
  if (ending === "canceled") events.push(jobEvent(jobId, next(), "job.canceled"));
  return events;
}
