/**
 * The process's one AsyncLocalStorage (on Node 20 each one in use costs on every promise), a slot per
 * kind: the trace context, the 2026-07-28 edge's held reports, and the request's facts (its id; its
 * MCP method, tool and job once read) for log lines and metric labels, a client's names only when known.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { FILE_TOOL } from "../../shared/files.js";
import { TOOL } from "../../shared/tools.js";

/** An object of one shape (the trace context is read many times a request). */
type Carried = { readonly request: unknown; readonly trace: unknown; readonly held: unknown };
const storage = new AsyncLocalStorage<Carried>();

/** One slot: `run` sets it for `fn`, the others as they were. */
export function contextSlot<T>(name: keyof Carried) {
  return {
    get: () => storage.getStore()?.[name] as T | undefined,
    run: <R>(value: T, fn: () => R): R => {
      const now = storage.getStore();
      return storage.run({ request: now?.request, trace: now?.trace, held: now?.held, [name]: value }, fn);
    },
  };
}

export type RequestFacts = {
  requestId: string;
  /** The JSON-RPC method (`tools/call`); `batch` for several, `other` for one this server does not know. */
  mcpMethod?: string;
  /** With `tools/call`: the tool's name (`other` for an unknown one). */
  tool?: string;
  /** The job a call names (its `jobId` argument, or a task's id), to find a job's lines across instances. */
  jobId?: string;
  /** With `tools/call`, once answered: `ok`, or the error code of an `isError` result. */
  outcome?: string;
};

type RequestScope = {
  facts: RequestFacts;
  onToolResult?: (tool: string, outcome: string, result: ToolResultLike) => void;
};

export type ToolResultLike = { isError?: boolean; structuredContent?: Record<string, unknown> };

/** The request being served; empty outside a request (a job's run, a timer). */
export const requestScope = contextSlot<RequestScope>("request");

export const currentRequest = (): RequestFacts | undefined => requestScope.get()?.facts;

const METHODS = new Set([
  ...["initialize", "ping", "completion/complete", "logging/setLevel", "subscriptions/listen"],
  ...["tools/list", "tools/call", "prompts/list", "prompts/get"],
  ...["resources/list", "resources/read", "resources/templates/list", "resources/subscribe", "resources/unsubscribe"],
  ...["tasks/get", "tasks/list", "tasks/cancel", "tasks/update", "tasks/result"],
]);
const JOB_ID = /^job_[\w-]{1,64}$/;
const TOOLS = new Set<string>([...Object.values(TOOL), ...Object.values(FILE_TOOL)]);
/** A tool's name as lines and labels carry it: `other` for one this server does not have. */
const toolLabel = (name: string | undefined): string => (name !== undefined && TOOLS.has(name) ? name : "other");

export const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;
/** A plain object as it is, anything else as an empty one. */
export const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function methodName(method: string): string {
  if (METHODS.has(method)) return method;
  return method.startsWith("notifications/") ? "notifications" : "other";
}

/** Notes a JSON-RPC body's method, tool and job id; never other arguments, which may hold people's data. */
export function noteJsonRpcBody(body: unknown): void {
  const facts = currentRequest();
  if (facts === undefined) return;
  const messages = (Array.isArray(body) ? body : [body]).map(asRecord);
  const methods = messages.map((m) => text(m.method)).filter((m) => m !== undefined);
  if (methods.length === 0) return; // replies to the server's own requests
  facts.mcpMethod = methods.length > 1 ? "batch" : methodName(methods[0]);
  const params = asRecord(messages[0].params);
  if (facts.mcpMethod === "tools/call") facts.tool = toolLabel(text(params.name));
  const jobId = text(asRecord(params.arguments).jobId) ?? text(params.taskId);
  if (jobId !== undefined && JOB_ID.test(jobId)) facts.jobId = jobId;
}

export function noteToolResult(tool: string, result: ToolResultLike): void {
  const scope = requestScope.get();
  if (scope === undefined) return;
  const outcome = result.isError ? (text(asRecord(result.structuredContent?.error).code) ?? "error") : "ok";
  scope.facts.outcome = outcome;
  // a start's reply names the job it created: its request's line then does too
  const created = text(result.structuredContent?.jobId);
  if (scope.facts.jobId === undefined && created !== undefined && JOB_ID.test(created)) scope.facts.jobId = created;
  scope.onToolResult?.(toolLabel(tool), outcome, result);
}
