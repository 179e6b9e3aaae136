/**
 * Job events out to one session, on its standalone GET stream: every event of a job the session
 * started as `notifications/job/<type>`; `notifications/resources/updated` for a result URI the
 * session subscribed to; and, once the client set a log level, `notifications/message` when a job
 * starts and ends.
 */
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { isTerminalEvent, toNotification, type JobEvent } from "../../shared/job-events.js";
import { URI } from "../../shared/tools.js";
import type { JobEventNotice } from "../jobs/job-log.js";
import type { JobService } from "../jobs/job-service.js";
import type { GiftServer } from "./server-types.js";

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

const SEVERITY: LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

function logLine(event: JobEvent): { level: LoggingLevel; text: string } | undefined {
  switch (event.type) {
    case "job.started":
      return { level: "info", text: `Gift analysis ${event.jobId} started.` };
    case "job.completed":
      return { level: "info", text: `Gift analysis ${event.jobId} completed: ${event.payload.summary}` };
    case "job.failed":
      return { level: "error", text: `Gift analysis ${event.jobId} failed: ${event.payload.message}` };
    case "job.canceled":
      return {
        level: "notice",
        text: `Gift analysis ${event.jobId} was canceled${event.payload.reason ? `: ${event.payload.reason}` : "."}`,
      };
    default:
      return undefined;
  }
}

/** Subscribes the session to job events; returns the unsubscribe function. */
export function forwardJobEvents(server: GiftServer, state: SessionState, jobs: JobService): () => void {
  // A closed or broken stream is not this listener's problem: the events stay in the job log.
  const send = (notification: Parameters<GiftServer["notification"]>[0]) => {
    server.notification(notification).catch(() => {});
  };
  return jobs.onEvent(({ event, owner }: JobEventNotice) => {
    if (state.sessionId === undefined) return;
    const mine = owner.sessionId === state.sessionId && owner.subject === state.subject;
    if (mine) send(toNotification(event));
    const resultUri = URI.jobResult(event.jobId);
    // only the job's owner learns that its result changed, as only the owner may read it
    if (isTerminalEvent(event) && state.subscriptions.get(resultUri) === owner.subject) {
      send({ method: "notifications/resources/updated", params: { uri: resultUri } });
    }
    const log = mine && state.logLevel ? logLine(event) : undefined;
    if (log && state.logLevel && SEVERITY.indexOf(log.level) >= SEVERITY.indexOf(state.logLevel)) {
      send({ method: "notifications/message", params: { level: log.level, logger: "jobs", data: log.text } });
    }
  });
}
