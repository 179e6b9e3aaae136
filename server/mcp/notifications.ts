/**
 * Job events out to one session, on its standalone GET stream: every event of a job the session
 * started as `notifications/job/<type>`; `notifications/resources/updated` for a result URI the
 * session subscribed to; and, once the client set a log level, `notifications/message` when a job
 * starts and ends.
 */
import type { LoggingLevel, Notification, Server } from "@modelcontextprotocol/server";
import { isTerminalEvent, toNotification, type JobEvent } from "../../shared/job-events.js";
import type { JobStatus, JobView } from "../../shared/job-view.js";
import { URI } from "../../shared/tools.js";
import type { JobService } from "../jobs/job-service.js";

/** What a session remembers between requests. */
export type SessionState = {
  sessionId?: string;
  /** The subject that initialized the session; only its own jobs are told to it. */
  subject?: string;
  /** Resource URIs the client subscribed to, with the subject that subscribed. */
  subscriptions: Map<string, string>;
  /** Set by `logging/setLevel`; no log notifications before that. */
  logLevel?: LoggingLevel;
};

/** Log levels from the least severe: a level passes a threshold at its own rank or below. */
const SEVERITY: LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

type LogLine = { level: LoggingLevel; text: string };

/** The log line for a job that reached `status`: when it starts and when it ends, the same words everywhere. */
function statusLine(jobId: string, status: JobStatus, detail: string | null | undefined): LogLine | undefined {
  switch (status) {
    case "running":
      return { level: "info", text: `Gift analysis ${jobId} started.` };
    case "completed":
      return { level: "info", text: `Gift analysis ${jobId} completed: ${detail}` };
    case "failed":
      return { level: "error", text: `Gift analysis ${jobId} failed: ${detail}` };
    case "canceled":
      return { level: "notice", text: `Gift analysis ${jobId} was canceled${detail ? `: ${detail}` : "."}` };
    default:
      return undefined;
  }
}

function logLine(event: JobEvent): LogLine | undefined {
  switch (event.type) {
    case "job.started":
      return statusLine(event.jobId, "running", null);
    case "job.completed":
      return statusLine(event.jobId, "completed", event.payload.summary);
    case "job.failed":
      return statusLine(event.jobId, "failed", event.payload.message);
    case "job.canceled":
      return statusLine(event.jobId, "canceled", event.payload.reason);
    default:
      return undefined;
  }
}

/** The log line for a job's view, for a request that follows it (`wait_for_job`). */
export const viewLogLine = (view: JobView): LogLine | undefined =>
  statusLine(
    view.jobId,
    view.status,
    view.status === "completed" ? view.summary : view.status === "failed" ? view.error?.message : view.cancelReason,
  );

/** Whether `level` is at or above the threshold the client set; nothing passes before it sets one. */
function passesLevel(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold !== undefined && SEVERITY.indexOf(level) >= SEVERITY.indexOf(threshold);
}

/**
 * Subscribes the session to job events, whichever process appended them (the job service relays
 * them); returns the unsubscribe function. Every event of a job the session started, the result's
 * update to a subscriber of the owner's subject (only the owner may read it), and the log lines of
 * its own jobs at the level it asked for.
 */
export function forwardJobEvents(server: Server, state: SessionState, jobs: JobService): () => void {
  // A closed or broken stream is not this listener's problem: the events stay in the job log.
  const send = (message: Notification) => void server.notification(message).catch(() => {});
  return jobs.onEvent(({ event, owner }) => {
    if (state.sessionId === undefined || owner.subject !== state.subject) return;
    const mine = owner.sessionId === state.sessionId;
    if (mine) send(toNotification(event));
    const uri = URI.jobResult(event.jobId);
    if (isTerminalEvent(event) && state.subscriptions.get(uri) === state.subject)
      send({ method: "notifications/resources/updated", params: { uri } });
    const log = mine ? logLine(event) : undefined;
    if (log && passesLevel(log.level, state.logLevel))
      send({ method: "notifications/message", params: { level: log.level, logger: "jobs", data: log.text } });
  });
}
