/**
 * The Tasks extension over jobs (the SDK has no server side for it): a start from a client that
 * declares it is answered as a task whose id is the job id; `tasks/get` reads it through the access
 * gate, `tasks/cancel` cancels it, and `tasks/update` only acknowledges (a job asks for no input).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
} from "@modelcontextprotocol/server";
import * as z from "zod/v4";
import type { ToolError } from "../../../shared/errors.js";
import type { JobView } from "../../../shared/job-view.js";
import { URI } from "../../../shared/tools.js";
import type { Caller } from "../../jobs/caller.js";
import type { JobService } from "../../jobs/job-service.js";
import { callerOf, failure, success, type CallToolResult } from "../tool-registry.js";
import { shownAs } from "../tools/show-job.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** The error data of a Tasks method asked without the extension (-32021). */
export const TASKS_REQUIRED = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
const POLL_INTERVAL_MS = 1_000;

/** Whether the request's per-request capabilities declare the Tasks extension. */
export function declaresTasks(envelope: unknown): boolean {
  const capabilities = (envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return extensions !== undefined && TASKS_EXTENSION in extensions;
}

/** What a person reads on the host's status line: the stage and how far it got, in the job's language. */
function statusMessage(view: JobView): string | undefined {
  if (view.status === "completed") return view.summary ?? undefined;
  if (view.status === "failed") return view.error?.message;
  if (view.status === "canceled") return view.cancelReason ?? undefined;
  if (view.stageLabel === null) return view.title ?? undefined;
  return view.message ? `${view.stageLabel}: ${view.message}` : view.stageLabel;
}

/** The ended job as a tool result: summary, counts and a link to the paged result (never people inline). */
function finalResult(view: JobView): CallToolResult {
  if (view.status === "failed" && view.error) return failure(view.error as ToolError);
  const resultUri = URI.jobResult(view.jobId);
  const text =
    `Job ${view.jobId} completed: ${view.summary ?? "done"} ` +
    `Read the picks with get_job_result (jobId "${view.jobId}") or the resource ${resultUri}.`;
  return success(shownAs(view), text, [
    {
      type: "resource_link",
      uri: resultUri,
      name: "job_result",
      title: view.title ?? "Gift analysis result",
      mimeType: "application/json",
    },
  ]);
}

const STATUS = {
  pending: "working",
  running: "working",
  completed: "completed",
  failed: "completed",
  canceled: "cancelled",
} as const;

/** A task as `tasks/get` and `notifications/tasks` carry it (the extension's `DetailedTask`). */
export function taskOf(view: JobView, ttlMs: number) {
  const status = STATUS[view.status];
  const createdAt = view.createdAt ?? new Date(0).toISOString();
  return {
    taskId: view.jobId,
    status,
    ...(statusMessage(view) !== undefined && { statusMessage: statusMessage(view) }),
    createdAt,
    lastUpdatedAt: view.updatedAt ?? createdAt,
    ttlMs,
    ...(status === "working" && { pollIntervalMs: POLL_INTERVAL_MS }),
    ...(status === "completed" && { result: { resultType: "complete" as const, ...finalResult(view) } }),
  };
}

/** A job the caller cannot have is an unknown task; a store that does not answer is the server's fault. */
function taskError(taskId: string, error: ToolError): ProtocolError {
  if (error.code === "store_unavailable")
    return new ProtocolError(
      ProtocolErrorCode.InternalError,
      `The job store is unreachable at the moment; ask for task ${taskId} again in a minute.`,
    );
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "Failed to retrieve task: Task not found", { taskId });
}

const TaskParams = { params: z.looseObject({ taskId: z.string() }), result: z.looseObject({}) };

export function createTasks(jobs: JobService) {
  const ttlMs = jobs.limits.retentionMs;
  /** The job `taskId` as a task, for `caller`; -32602 when it is not theirs or not there. */
  const get = async (taskId: string, caller: Caller) => {
    const now = await jobs.waitFor({ jobId: taskId, timeoutMs: 0 }, caller, () => {});
    if (!now.ok) throw taskError(taskId, now.error);
    return taskOf(now.value.view, ttlMs);
  };
  return {
    /** The task for a start's result, once `tasks/get` resolves it; a start that failed stays a plain result. */
    async created(result: CallToolResult, caller: Caller) {
      const jobId = result.structuredContent?.jobId;
      if (result.isError || typeof jobId !== "string") return result;
      return { resultType: "task", ...(await get(jobId, caller)) };
    },
    /** The `tasks/*` handlers; a server not bound to 2026-07-28 (`modern`) knows no such methods. */
    register(server: Server, modern: () => boolean) {
      const handle = (
        method: `tasks/${string}`,
        answer: (taskId: string, caller: Caller) => Promise<Record<string, unknown>>,
      ) =>
        server.setRequestHandler(method, TaskParams, async ({ taskId }, ctx) => {
          if (!modern()) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
          if (!declaresTasks(ctx.mcpReq.envelope))
            throw new MissingRequiredClientCapabilityError(TASKS_REQUIRED, "Missing required client capability");
          return answer(taskId, callerOf(ctx));
        });
      handle("tasks/get", get);
      handle("tasks/cancel", async (taskId, caller) => {
        const canceled = await jobs.cancel({ jobId: taskId }, caller);
        if (!canceled.ok) throw taskError(taskId, canceled.error);
        return {};
      });
      // nothing is asked of the client: the task must only exist
      handle("tasks/update", (taskId, caller) => get(taskId, caller).then(() => ({})));
    },
  };
}
