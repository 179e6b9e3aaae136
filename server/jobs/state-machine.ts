/**
 * The job lifecycle, pending → running → completed | failed | canceled, as a pure check of the next
 * event: no event follows a terminal one, and the percentage never goes back.
 */
import type { JobEvent } from "../../shared/job-events.js";
import type { JobFold } from "../../shared/job-reducer.js";
import { isFinished } from "../../shared/job-view.js";

type Envelope = "eventId" | "jobId" | "seq" | "timestamp";
/** An event before the log gives it its envelope (id, job, seq, time). */
export type EventDraft = JobEvent extends infer E ? (E extends JobEvent ? Omit<E, Envelope> : never) : never;

/** Null when `draft` may follow the events behind `fold`, else why not. */
export function checkTransition(fold: JobFold, draft: EventDraft): string | null {
  if (fold.lastSeq === 0) return draft.type === "job.created" ? null : `${draft.type} before job.created`;
  if (draft.type === "job.created") return "job.created twice";
  const status = fold.status;
  if (isFinished(status)) return `${draft.type} after the job was ${status}`;
  switch (draft.type) {
    case "job.started":
      return status === "pending" ? null : "job.started twice";
    case "job.progress": {
      if (status !== "running") return "job.progress before job.started";
      const p = draft.payload.percentage;
      return p >= fold.percentage && p <= 100 ? null : `percentage ${p} after ${fold.percentage}`;
    }
    case "job.completed":
      return status === "running" ? null : "job.completed before job.started";
    case "job.failed":
    case "job.canceled":
      return null;
    default: {
      const never: never = draft;
      return never;
    }
  }
}
