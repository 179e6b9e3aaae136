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
import type { Caller } from "../../jobs/caller.js";
import { jsonRpcError } from "../../json-rpc-error.js";
import type { JobService } from "../../jobs/job-service.js";
import { resultJobOf } from "../resources.js";
import { ListenStream, type ListenStreamOptions, type Watched } from "./listen-stream.js";
import { declaresTasks, TASKS_EXTENSION } from "./tasks.js";

type ListenRequest = { id: string | number; params?: { _meta?: unknown; notifications?: unknown } };
type Filter = { resourceSubscriptions?: unknown; taskIds?: unknown };
/** What a request asks to hear of: tasks by id, and results by job id with the URI it named each by. */
type Asked = { taskIds: string[]; resultUris: Map<string, string> };

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
    /** Answers one listen request of `caller`: an error, or the stream. */
    async serve(message: ListenRequest, caller: Caller, signal: AbortSignal): Promise<Response> {
      if (open.size >= maxStreams)
        // answered as the SDK's own listen answers it; a refused filter is 400, the spec's status for -32602 and -32021
        return jsonRpcError(
          200,
          -32603,
          "Subscription limit reached: too many listen streams are open. Try again later.",
          undefined,
          message.id,
        );
      const asked = askedOf(message);
      if (!asked.ok) return asked.refusal;
      const { honored, watched } = await honour(jobs, asked.value, caller);
      const options: ListenStreamOptions = { id: message.id, honored, ttlMs, keepAliveMs, onError, onEnd };
      const stream = new ListenStream(options);
      if (watched.tasks.size + watched.results.size === 0) {
        stream.end({ graceful: true });
        return stream.response();
      }
      open.add(stream);
      await stream.watch(jobs, watched, caller, signal);
      return stream.response();
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

/** What the request asks for, or the error that refuses it. */
function askedOf(message: ListenRequest): { ok: true; value: Asked } | { ok: false; refusal: Response } {
  const filter = message.params?.notifications as Filter | undefined;
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) {
    const text = "Invalid params: 'notifications' is required and must be an object.";
    return { ok: false, refusal: jsonRpcError(400, -32602, text, undefined, message.id) };
  }
  if (filter.taskIds !== undefined && !declaresTasks(message.params?._meta)) {
    const data = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
    return { ok: false, refusal: jsonRpcError(400, -32021, "Missing required client capability", data, message.id) };
  }
  const resultUris = new Map(
    strings(filter.resourceSubscriptions).flatMap((uri) =>
      resultJobOf(uri) === undefined ? [] : [[resultJobOf(uri)!, uri] as const],
    ),
  );
  return { ok: true, value: { taskIds: strings(filter.taskIds), resultUris } };
}

/** What `caller` may hear of what it asked, as the acknowledgement says it and as the stream watches it. */
async function honour(
  jobs: JobService,
  { taskIds, resultUris }: Asked,
  caller: Caller,
): Promise<{ honored: ListenStreamOptions["honored"]; watched: Watched }> {
  const [resultJobIds, taskJobIds] = await Promise.all([
    readable(jobs, [...resultUris.keys()], caller),
    readable(jobs, taskIds, caller),
  ]);
  const honored: ListenStreamOptions["honored"] = {};
  if (resultJobIds.length > 0) honored.resourceSubscriptions = resultJobIds.map((id) => resultUris.get(id)!);
  if (taskJobIds.length > 0) honored.taskIds = taskJobIds;
  return { honored, watched: { tasks: new Set(taskJobIds), results: new Set(resultJobIds) } };
}

/**
 * The job ids among `ids` that `caller` may see (a store error honours none of them), followed
 * from here on: their events reach this instance wherever they are appended.
 */
async function readable(jobs: JobService, ids: string[], caller: Caller): Promise<string[]> {
  const unique = [...new Set(ids)].slice(0, 100);
  const checks = await Promise.all(unique.map((id) => jobs.follow(id, caller).catch(() => ({ ok: false }))));
  return unique.filter((_, i) => checks[i].ok);
}
