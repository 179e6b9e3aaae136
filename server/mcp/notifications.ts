/**
 * Job events out to one 2025-11-25 session, on its GET stream: its jobs' events, the update of a
 * result it subscribed to, and, once it set a log level, a log line when its jobs start and end.
 */
import type { LoggingLevel, Notification, Server } from "@modelcontextprotocol/server";
import { isTerminalEvent, toNotification } from "../../shared/job-events.js";
import { toJobView } from "../../shared/job-reducer.js";
import type { JobView } from "../../shared/job-view.js";
import { URI } from "../../shared/tools.js";
import type { JobService } from "../jobs/job-service.js";

/** What a session remembers between requests. */
export type SessionState = {
  sessionId?: string;
  /** Who initialized the session: only their jobs are told to it. */
  subject?: string;
  /** Resource URIs the client subscribed to, with the subject that subscribed. */
  subscriptions: Map<string, string>;
  /** Set by `logging/setLevel`; no log lines before that. */
  logLevel?: LoggingLevel;
};

/** Log levels from the least severe: a level passes a threshold at its own rank or below. */
export const SEVERITY = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

type LogLine = { level: LoggingLevel; text: string };

/** The log line for a job that reached its view's status: the same words everywhere. */
export function viewLogLine(view: JobView): LogLine | undefined {
  const { jobId, status } = view;
  if (status === "running") return { level: "info", text: `Gift analysis ${jobId} started.` };
  if (status === "completed") return { level: "info", text: `Gift analysis ${jobId} completed: ${view.summary}` };
  if (status === "failed") return { level: "error", text: `Gift analysis ${jobId} failed: ${view.error?.message}` };
  if (status !== "canceled") return undefined;
  const reason = view.cancelReason ? `: ${view.cancelReason}` : ".";
  return { level: "notice", text: `Gift analysis ${jobId} was canceled${reason}` };
}

/** Subscribes the session to its jobs' events from any process; returns the unsubscribe function. */
export function forwardJobEvents(server: Server, state: SessionState, jobs: JobService): () => void {
  // A closed or broken stream is not this listener's problem: the events stay in the job log.
  const send = (message: Notification) => void server.notification(message).catch(() => {});
  return jobs.onEvent(({ event, fold, owner }) => {
    if (state.sessionId === undefined || owner.subject !== state.subject) return;
    const mine = owner.sessionId === state.sessionId;
    if (mine) send(toNotification(event));
    const uri = URI.jobResult(event.jobId);
    if (isTerminalEvent(event) && state.subscriptions.get(uri) === state.subject)
      send({ method: "notifications/resources/updated", params: { uri } });
    const log =
      mine && (event.type === "job.started" || isTerminalEvent(event)) ? viewLogLine(toJobView(fold)) : undefined;
    if (log && state.logLevel && SEVERITY.indexOf(log.level) >= SEVERITY.indexOf(state.logLevel))
      send({ method: "notifications/message", params: { level: log.level, logger: "jobs", data: log.text } });
  });
}
