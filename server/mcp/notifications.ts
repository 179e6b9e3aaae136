/**
 * Job events out to one 2025-11-25 session, on its GET stream: its jobs' events, the update of a
 * result it subscribed to, and, once it set a log level, a log line when its jobs start and end.
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

/** The log line for a job that reached `status`: the same words everywhere. */
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

const logLine = (e: JobEvent): LogLine | undefined =>
  e.type === "job.started"
    ? statusLine(e.jobId, "running", null)
    : e.type === "job.completed"
      ? statusLine(e.jobId, "completed", e.payload.summary)
      : e.type === "job.failed"
        ? statusLine(e.jobId, "failed", e.payload.message)
        : e.type === "job.canceled"
          ? statusLine(e.jobId, "canceled", e.payload.reason)
          : undefined;

/** The log line for a job's view, for a request that follows it (`wait_for_job`). */
export const viewLogLine = (view: JobView): LogLine | undefined =>
  statusLine(
    view.jobId,
    view.status,
    view.status === "completed" ? view.summary : view.status === "failed" ? view.error?.message : view.cancelReason,
  );

/**
 * Subscribes the session to job events from any process (the job service relays them); returns the
 * unsubscribe function. A result's update goes only to a subscriber of the owner's subject.
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
    // nothing passes before the client sets a level
    if (log && state.logLevel && SEVERITY.indexOf(log.level) >= SEVERITY.indexOf(state.logLevel))
      send({ method: "notifications/message", params: { level: log.level, logger: "jobs", data: log.text } });
  });
}
