/**
 * `subscriptions/listen` for 2026-07-28 clients: one SSE stream per request carrying what it asked
 * for and nothing else. `resourceSubscriptions` for job results (`gifts://jobs/{id}/result`) get
 * `notifications/resources/updated` as the partial result grows and when the job ends; `taskIds`
 * get `notifications/tasks` with the whole task whenever it changes. Only the caller's own jobs
 * are honoured, and the acknowledgement says which. The events come from the job service, which
 * hears appends on every instance, so any instance serves any stream.
 *
 * The SDK serves listen streams itself, but only for the four standard types and without asking
 * who may hear what; this replaces it for our endpoint.
 */
import { isTerminalEvent, type JobEvent } from "../../../shared/job-events.js";
import { toJobView } from "../../../shared/job-reducer.js";
import { isFinished, type JobView } from "../../../shared/job-view.js";
import { URI } from "../../../shared/tools.js";
import type { Caller } from "../../jobs/caller.js";
import type { JobEventNotice } from "../../jobs/job-log.js";
import type { JobService } from "../../jobs/job-service.js";
import { resultJobOf } from "../resources.js";
import { SERVER_INFO } from "../server.js";
import { declaresTasks, taskOf, TASKS_EXTENSION } from "./tasks.js";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

type Id = string | number;
type ListenRequest = { id: Id; params?: { _meta?: unknown; notifications?: unknown } };
type Filter = { resourceSubscriptions?: unknown; taskIds?: unknown };

export type Listen = {
  /** Answers one listen request of `caller`: an error, or the stream. */
  serve(message: ListenRequest, caller: Caller, signal: AbortSignal): Promise<Response>;
  /** Ends every stream with the listen result (a graceful end). */
  close(): void;
  readonly openCount: number;
};

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

function errorResponse(id: Id, code: number, message: string, data?: unknown): Response {
  return Response.json({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
}

/** Resources updated: when a job's partial result grows (compose) and when it ends. */
const changesResult = (event: JobEvent): boolean =>
  isTerminalEvent(event) || (event.type === "job.progress" && event.payload.stage === "compose");

export function createListen({
  jobs,
  keepAliveMs,
  onError,
  maxStreams = 1024,
}: {
  jobs: JobService;
  keepAliveMs: number;
  onError: (error: Error) => void;
  /** Streams open at once on this instance; one more is refused (the SDK's own default). */
  maxStreams?: number;
}): Listen {
  const ttlMs = jobs.limits.retentionMs;
  const open = new Set<(graceful: boolean) => void>();

  /**
   * The job ids among `ids` that `caller` may see (a store error honours none of them), followed
   * from here on: their events reach this instance wherever they are appended.
   */
  async function readable(ids: string[], caller: Caller): Promise<string[]> {
    const unique = [...new Set(ids)].slice(0, 100);
    const checks = await Promise.all(unique.map((id) => jobs.follow(id, caller).catch(() => ({ ok: false }))));
    return unique.filter((_, i) => checks[i].ok);
  }

  return {
    async serve(message, caller, signal) {
      if (open.size >= maxStreams)
        return errorResponse(
          message.id,
          -32603,
          "Subscription limit reached: too many listen streams are open. Try again later.",
        );
      const filter = message.params?.notifications as Filter | undefined;
      if (typeof filter !== "object" || filter === null || Array.isArray(filter))
        return errorResponse(message.id, -32602, "Invalid params: 'notifications' is required and must be an object.");
      const askedTasks = strings(filter.taskIds);
      if (filter.taskIds !== undefined && !declaresTasks(message.params?._meta))
        return errorResponse(message.id, -32021, "Missing required client capability", {
          requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        });
      const askedUris = strings(filter.resourceSubscriptions);
      const uriJobs = new Map(
        askedUris.flatMap((uri) => (resultJobOf(uri) === undefined ? [] : [[resultJobOf(uri)!, uri]])),
      );
      const [uriJobIds, taskIds] = await Promise.all([
        readable([...uriJobs.keys()], caller),
        readable(askedTasks, caller),
      ]);
      const honored: { resourceSubscriptions?: string[]; taskIds?: string[] } = {};
      if (uriJobIds.length > 0) honored.resourceSubscriptions = uriJobIds.map((id) => uriJobs.get(id)!);
      if (taskIds.length > 0) honored.taskIds = taskIds;
      const watchUris = new Set(uriJobIds);
      const watchTasks = new Set(taskIds);

      const encoder = new TextEncoder();
      const stamp = { [SUBSCRIPTION_ID]: message.id };
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      let closed = false;
      let stop = () => {};
      const write = (frame: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(frame));
        } catch (error) {
          onError(error as Error);
        }
      };
      const send = (method: string, params: Record<string, unknown>) =>
        write(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method, params: { ...params, _meta: stamp } })}\n\n`,
        );
      // a task is sent when it moved on since it was last sent: duplicate, late and older views
      // (an event heard while the first reading was on its way) say nothing new
      const sent = new Map<string, [number, number, string]>();
      const sendTask = (view: JobView) => {
        const key: [number, number, string] = [isFinished(view.status) ? 1 : 0, view.percentage, view.updatedAt ?? ""];
        if (!newer(key, sent.get(view.jobId))) return;
        sent.set(view.jobId, key);
        send("notifications/tasks", taskOf(view, ttlMs));
      };
      const end = (graceful: boolean) => {
        if (closed) return;
        if (graceful) {
          const result = { resultType: "complete", _meta: { ...stamp, [SERVER_INFO_KEY]: SERVER_INFO } };
          write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n\n`);
        }
        closed = true;
        stop();
        clearInterval(heartbeat);
        signal.removeEventListener("abort", onAbort);
        open.delete(end);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const onAbort = () => end(false);
      const heartbeat = setInterval(() => write(": keepalive\n\n"), keepAliveMs);
      heartbeat.unref?.();

      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
          send("notifications/subscriptions/acknowledged", { notifications: honored });
        },
        cancel: () => end(false),
      });
      if (watchUris.size + watchTasks.size === 0) {
        end(true);
        return sse(stream);
      }
      open.add(end);
      signal.addEventListener("abort", onAbort, { once: true });
      stop = jobs.onEvent(({ event, fold, owner }: JobEventNotice) => {
        if (owner.subject !== caller.subject) return;
        if (watchTasks.has(event.jobId)) sendTask(toJobView(fold));
        if (watchUris.has(event.jobId) && changesResult(event))
          send("notifications/resources/updated", { uri: URI.jobResult(event.jobId) });
      });
      // what happened before the stream was open: each task as it is now, and the results that are final
      for (const jobId of new Set([...watchTasks, ...watchUris])) {
        const now = await jobs.waitFor({ jobId, timeoutMs: 0 }, caller, () => {}).catch(() => undefined);
        if (!now?.ok) continue;
        if (watchTasks.has(jobId)) sendTask(now.value.view);
        if (watchUris.has(jobId) && now.value.done)
          send("notifications/resources/updated", { uri: URI.jobResult(jobId) });
      }
      return sse(stream);
    },
    close() {
      for (const end of open) end(true);
    },
    get openCount() {
      return open.size;
    },
  };
}

/** Whether a task's (ended, percentage, last update) comes after `last`'s. */
function newer(key: [number, number, string], last: [number, number, string] | undefined): boolean {
  if (last === undefined) return true;
  for (let i = 0; i < key.length; i++) if (key[i] !== last[i]) return key[i] > last[i];
  return false;
}

function sse(stream: ReadableStream<Uint8Array>): Response {
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
