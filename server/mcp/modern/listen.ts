/**
 * `subscriptions/listen` (2026-07-28): an SSE stream per request. Job results get
 * `notifications/resources/updated` as they grow and end; `taskIds` get `notifications/tasks`. Only
 * the caller's own jobs are honoured (the SDK's listen asks nobody who may hear what); any instance serves any stream.
 */
import { SERVER_INFO_META_KEY, SUBSCRIPTION_ID_META_KEY } from "@modelcontextprotocol/server";
import { isTerminalEvent, type JobEvent } from "../../../shared/job-events.js";
import { toJobView } from "../../../shared/job-reducer.js";
import { isFinished, type JobView } from "../../../shared/job-view.js";
import { URI } from "../../../shared/tools.js";
import type { Caller } from "../../jobs/caller.js";
import type { JobEventNotice } from "../../jobs/job-log.js";
import type { JobService } from "../../jobs/job-service.js";
import { jsonRpcError } from "../../json-rpc-error.js";
import { resultJobOf } from "../resources.js";
import { SERVER_INFO } from "../server.js";
import { declaresTasks, taskOf, TASKS_REQUIRED } from "./tasks.js";

type ListenRequest = { id: string | number; params?: { _meta?: unknown; notifications?: unknown } };
type Filter = { resourceSubscriptions?: unknown; taskIds?: unknown };
type Honored = { resourceSubscriptions?: string[]; taskIds?: string[] };

type ListenOptions = {
  jobs: JobService;
  keepAliveMs: number;
  onError: (error: Error) => void;
  /** Streams open at once on this instance; one more is refused (the SDK's own default). */
  maxStreams?: number;
};

export function createListen({ jobs, keepAliveMs, onError, maxStreams = 1024 }: ListenOptions) {
  const ttlMs = jobs.limits.retentionMs;
  const open = new Set<ListenStream>();
  const onEnd = (stream: ListenStream) => void open.delete(stream);

  return {
    async serve(message: ListenRequest, caller: Caller, signal: AbortSignal): Promise<Response> {
      // 200, as the SDK's own listen answers it; a refused filter is 400, the spec's status for -32602 and -32021
      const full = "Subscription limit reached: too many listen streams are open. Try again later.";
      if (open.size >= maxStreams) return jsonRpcError(200, -32603, full, undefined, message.id);
      const honored = await honour(jobs, message, caller);
      if (honored instanceof Response) return honored;
      const stream = new ListenStream({ id: message.id, honored, ttlMs, keepAliveMs, onError, onEnd });
      if (!honored.taskIds && !honored.resourceSubscriptions) stream.end({ graceful: true });
      else {
        open.add(stream);
        await stream.watch(jobs, caller, signal);
      }
      return new Response(stream.body, {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" },
      });
    },
    /** Ends every stream with the listen result (a graceful end). */
    close() {
      for (const stream of open) stream.end({ graceful: true });
    },
    get openCount() {
      return open.size;
    },
  };
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** What `caller` may hear of what it asked, as the acknowledgement says it, or the refusal. */
async function honour(jobs: JobService, message: ListenRequest, caller: Caller): Promise<Honored | Response> {
  const filter = message.params?.notifications as Filter | undefined;
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) {
    const text = "Invalid params: 'notifications' is required and must be an object.";
    return jsonRpcError(400, -32602, text, undefined, message.id);
  }
  if (filter.taskIds !== undefined && !declaresTasks(message.params?._meta))
    return jsonRpcError(400, -32021, "Missing required client capability", TASKS_REQUIRED, message.id);
  // a job's result URI is the one `resultJobOf` reads its id from
  const resultJobs = strings(filter.resourceSubscriptions).flatMap((uri) => resultJobOf(uri) ?? []);
  const [resultJobIds, taskJobIds] = await Promise.all([
    readable(jobs, resultJobs, caller),
    readable(jobs, strings(filter.taskIds), caller),
  ]);
  return {
    ...(resultJobIds.length > 0 && { resourceSubscriptions: resultJobIds.map(URI.jobResult) }),
    ...(taskJobIds.length > 0 && { taskIds: taskJobIds }),
  };
}

/** The job ids among `ids` that `caller` may see (a store error honours none), followed from here on. */
async function readable(jobs: JobService, ids: string[], caller: Caller): Promise<string[]> {
  const unique = [...new Set(ids)].slice(0, 100);
  const checks = await Promise.all(unique.map((id) => jobs.follow(id, caller).catch(() => ({ ok: false }))));
  return unique.filter((_, i) => checks[i].ok);
}

type ListenStreamOptions = {
  id: string | number;
  honored: Honored;
  ttlMs: number;
  keepAliveMs: number;
  onError: (error: Error) => void;
  onEnd: (stream: ListenStream) => void;
};

/** A task's (ended, percentage, last update), which only grows. */
type TaskKey = [number, number, string];

/** Resources updated: when a job's partial result grows (compose) and when it ends. */
const changesResult = (event: JobEvent): boolean =>
  isTerminalEvent(event) || (event.type === "job.progress" && event.payload.stage === "compose");

const encoder = new TextEncoder();

/** One listen stream: the acknowledgement, its jobs' changes, keep-alives, and its end. */
class ListenStream {
  readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private closed = false;
  private unlisten = () => {};
  private readonly sent = new Map<string, TaskKey>();
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly stamp: Record<string, string | number>;

  constructor(private readonly options: ListenStreamOptions) {
    this.stamp = { [SUBSCRIPTION_ID_META_KEY]: options.id };
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

  /** Tells the honoured jobs' changes until the client aborts, after where each stands now. */
  async watch(jobs: JobService, caller: Caller, signal: AbortSignal): Promise<void> {
    const { taskIds = [], resourceSubscriptions = [] } = this.options.honored;
    const tasks = new Set(taskIds);
    const results = new Set(resourceSubscriptions.map((uri) => resultJobOf(uri)!));
    const onAbort = () => this.end({ graceful: false });
    signal.addEventListener("abort", onAbort, { once: true });
    const stop = jobs.onEvent(({ event, fold, owner }: JobEventNotice) => {
      if (owner.subject !== caller.subject) return;
      if (tasks.has(event.jobId)) this.sendTask(toJobView(fold));
      if (results.has(event.jobId) && changesResult(event)) this.resultUpdated(event.jobId);
    });
    this.unlisten = () => {
      stop();
      signal.removeEventListener("abort", onAbort);
    };
    for (const jobId of new Set([...tasks, ...results])) {
      const now = await jobs.waitFor({ jobId, timeoutMs: 0 }, caller, () => {}).catch(() => undefined);
      if (!now?.ok) continue;
      if (tasks.has(jobId)) this.sendTask(now.value.view);
      if (results.has(jobId) && now.value.done) this.resultUpdated(jobId);
    }
  }

  /** Ends the stream, with the listen result when `graceful` (the server ends it), else silently. */
  readonly end = ({ graceful }: { graceful: boolean }): void => {
    if (this.closed) return;
    if (graceful) {
      const result = { resultType: "complete", _meta: { ...this.stamp, [SERVER_INFO_META_KEY]: SERVER_INFO } };
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

  /** A task is sent when it moved on: duplicate, late and older views say nothing new. */
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

/** Whether a task's key comes after `last`'s. */
function newer(key: TaskKey, last: TaskKey | undefined): boolean {
  if (last === undefined) return true;
  for (let i = 0; i < key.length; i++) if (key[i] !== last[i]) return key[i] > last[i];
  return false;
}
