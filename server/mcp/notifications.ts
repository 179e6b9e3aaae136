/**
 * Job events out to one session, on its standalone GET stream: every event of a job the session
 * started as `notifications/job/<type>`; `notifications/resources/updated` for a result URI the
 * session subscribed to; and, once the client set a log level, `notifications/message` when a job
 * starts and ends.
 */
import type { LoggingLevel, Notification as SdkNotification, Server } from "@modelcontextprotocol/server";
import { isTerminalEvent, toNotification, type JobEvent } from "../../shared/job-events.js";
import type { JobStatus, JobView } from "../../shared/job-view.js";
import { URI } from "../../shared/tools.js";
import type { JobEventNotice } from "../jobs/job-log.js";
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
  /**
   * Where sessions are kept in Redis across instances (a cluster): keeps the choices above in the
   * session's record, whose notification stream any instance serves (session-streams.ts) instead
   * of this server.
   */
  cluster?: {
    subscribe(uri: string, jobId?: string): Promise<void>;
    unsubscribe(uri: string): Promise<void>;
    setLevel(level: LoggingLevel): Promise<void>;
  };
};

const SEVERITY: LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
/** A log level's rank, from 0 for "debug": a level passes a threshold of the same rank or lower. */
export const severity = (level: LoggingLevel): number => SEVERITY.indexOf(level);

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

/** When a message goes out: always, if the session subscribed to a URI, or at a log level it asked for. */
export type Condition = { always: true } | { subscribed: string } | { level: LoggingLevel };
export type Notification = SdkNotification;

/**
 * What one job event tells the session `sessionId` of `subject`, each message with its condition:
 * every event of a job the session started, the result's update to a subscriber of the owner's
 * subject (only the owner may read it), and the log lines of its own jobs.
 */
export function messagesFor(
  { event, owner }: Pick<JobEventNotice, "event" | "owner">,
  sessionId: string,
  subject: string,
): { message: Notification; when: Condition }[] {
  const mine = owner.sessionId === sessionId && owner.subject === subject;
  const out: { message: Notification; when: Condition }[] = [];
  if (mine) out.push({ message: toNotification(event), when: { always: true } });
  if (isTerminalEvent(event) && owner.subject === subject) {
    const uri = URI.jobResult(event.jobId);
    out.push({ message: { method: "notifications/resources/updated", params: { uri } }, when: { subscribed: uri } });
  }
  const log = mine ? logLine(event) : undefined;
  if (log) {
    out.push({
      message: { method: "notifications/message", params: { level: log.level, logger: "jobs", data: log.text } },
      when: { level: log.level },
    });
  }
  return out;
}

/** Whether `level` is at or above the threshold the client set; nothing passes before it sets one. */
function passesLevel(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold !== undefined && severity(level) >= severity(threshold);
}

/** Subscribes the session to job events; returns the unsubscribe function. */
export function forwardJobEvents(server: Server, state: SessionState, jobs: JobService): () => void {
  const holds = (when: Condition) =>
    "always" in when ||
    ("subscribed" in when
      ? state.subscriptions.get(when.subscribed) === state.subject
      : passesLevel(when.level, state.logLevel));
  return jobs.onEvent((notice) => {
    if (state.sessionId === undefined || state.subject === undefined) return;
    for (const { message, when } of messagesFor(notice, state.sessionId, state.subject)) {
      // A closed or broken stream is not this listener's problem: the events stay in the job log.
      if (holds(when)) server.notification(message).catch(() => {});
    }
  });
}
