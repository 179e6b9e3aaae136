/**
 * One `subscriptions/listen` stream (`listen.ts`): the SSE body, the acknowledgement it opens
 * with, the changes of the jobs it watches as they come, keep-alive comments while nothing does,
 * and its end: the listen result when the server ends it, nothing when the client goes.
 */
import { isTerminalEvent, type JobEvent } from "../../../shared/job-events.js";
import { toJobView } from "../../../shared/job-reducer.js";
import { isFinished, type JobView } from "../../../shared/job-view.js";
import { URI } from "../../../shared/tools.js";
import type { Caller } from "../../jobs/caller.js";
import type { JobEventNotice } from "../../jobs/job-log.js";
import type { JobService } from "../../jobs/job-service.js";
import { sseResponse } from "../http/sse.js";
import { SERVER_INFO } from "../server.js";
import { taskOf } from "./tasks.js";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

/** What a stream tells: its jobs' tasks, and their results' updates. */
export type Watched = { tasks: Set<string>; results: Set<string> };

export type ListenStreamOptions = {
  /** The listen request's id, which stamps every message. */
  id: string | number;
  /** What the acknowledgement says is honoured. */
  honored: { resourceSubscriptions?: string[]; taskIds?: string[] };
  /** How long a task is kept, as its `ttlMs` says. */
  ttlMs: number;
  keepAliveMs: number;
  onError: (error: Error) => void;
  /** Called once the stream ended, however it did. */
  onEnd: (stream: ListenStream) => void;
};

/** A task's (ended, percentage, last update), which only grows. */
type TaskKey = [number, number, string];

/** Resources updated: when a job's partial result grows (compose) and when it ends. */
const changesResult = (event: JobEvent): boolean =>
  isTerminalEvent(event) || (event.type === "job.progress" && event.payload.stage === "compose");

export class ListenStream {
  private readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private closed = false;
  /** Stops hearing the job service and the client's abort; set once the stream watches anything. */
  private unlisten = () => {};
  /** What each task was when last sent. */
  private readonly sent = new Map<string, TaskKey>();
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly stamp: Record<string, string | number>;

  constructor(private readonly options: ListenStreamOptions) {
    this.stamp = { [SUBSCRIPTION_ID]: options.id };
    this.heartbeat = setInterval(() => this.write(": keepalive\n\n"), options.keepAliveMs);
    this.heartbeat.unref?.();
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
        this.send("notifications/subscriptions/acknowledged", { notifications: options.honored });
      },
      cancel: () => this.end({ graceful: false }),
    });
  }

  /**
   * Tells `watched`'s changes from now on, the events of `caller`'s jobs only, until the client
   * aborts; and first what happened before the stream was open: each task as it is now, and the
   * results that are final.
   */
  async watch(jobs: JobService, watched: Watched, caller: Caller, signal: AbortSignal): Promise<void> {
    const onAbort = () => this.end({ graceful: false });
    signal.addEventListener("abort", onAbort, { once: true });
    const stop = jobs.onEvent(({ event, fold, owner }: JobEventNotice) => {
      if (owner.subject !== caller.subject) return;
      if (watched.tasks.has(event.jobId)) this.sendTask(toJobView(fold));
      if (watched.results.has(event.jobId) && changesResult(event)) this.resultUpdated(event.jobId);
    });
    this.unlisten = () => {
      stop();
      signal.removeEventListener("abort", onAbort);
    };
    for (const jobId of new Set([...watched.tasks, ...watched.results])) {
      const now = await jobs.waitFor({ jobId, timeoutMs: 0 }, caller, () => {}).catch(() => undefined);
      if (!now?.ok) continue;
      if (watched.tasks.has(jobId)) this.sendTask(now.value.view);
      if (watched.results.has(jobId) && now.value.done) this.resultUpdated(jobId);
    }
  }

  /** Ends the stream, with the listen result when `graceful` (the server ends it), else silently. */
  readonly end = ({ graceful }: { graceful: boolean }): void => {
    if (this.closed) return;
    if (graceful) {
      const result = { resultType: "complete", _meta: { ...this.stamp, [SERVER_INFO_KEY]: SERVER_INFO } };
      this.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: this.options.id, result })}\n\n`);
    }
    this.closed = true;
    this.unlisten();
    clearInterval(this.heartbeat);
    this.options.onEnd(this);
    try {
      this.controller.close();
    } catch {
      // already closed by the client
    }
  };

  response(): Response {
    return sseResponse(this.body);
  }

  /**
   * A task is sent when it moved on since it was last sent: duplicate, late and older views (an
   * event heard while the first reading was on its way) say nothing new.
   */
  private sendTask(view: JobView): void {
    const key: TaskKey = [isFinished(view.status) ? 1 : 0, view.percentage, view.updatedAt ?? ""];
    if (!newer(key, this.sent.get(view.jobId))) return;
    this.sent.set(view.jobId, key);
    this.send("notifications/tasks", taskOf(view, this.options.ttlMs));
  }

  private resultUpdated(jobId: string): void {
    this.send("notifications/resources/updated", { uri: URI.jobResult(jobId) });
  }

  private send(method: string, params: Record<string, unknown>): void {
    const message = { jsonrpc: "2.0", method, params: { ...params, _meta: this.stamp } };
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  private write(frame: string): void {
    if (this.closed) return;
    try {
      this.controller.enqueue(encoder.encode(frame));
    } catch (error) {
      this.options.onError(error as Error);
    }
  }
}

const encoder = new TextEncoder();

/** Whether a task's key comes after `last`'s. */
function newer(key: TaskKey, last: TaskKey | undefined): boolean {
  if (last === undefined) return true;
  for (let i = 0; i < key.length; i++) if (key[i] !== last[i]) return key[i] > last[i];
  return false;
}
