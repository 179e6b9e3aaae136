/**
 * Reads a POST /mcp body before the SDK: the size limit (413), bad JSON (-32700) told from JSON that
 * is not JSON-RPC (-32600), and what routing needs. The SDK answers -32700 for all and parses on the
 * event loop; `../../http/` parses large bodies in a worker.
 */
import { ProtocolErrorCode } from "@modelcontextprotocol/server";
import { clip, describeIssues } from "../../input-errors.js";
import { noteJsonRpcBody } from "../../observability/request-context.js";
import { parseJson } from "../../http/json-worker.js";
import { readWebBody, type BodyReader } from "../../http/node-body.js";
import { jsonRpcError, retryLater } from "../../json-rpc-error.js";
import { megabytes } from "../../limits.js";
import { InitializeRequestSchema, isObject } from "./request-guard.js";

/** The most messages one batch may hold: the SDK's own limit. */
const MAX_BATCH_SIZE = 100;

/** Deepest nesting accepted: the SDK's validators recurse, and JSON some thousands deep overflows the stack. */
const MAX_DEPTH = 100;

type Routed = { body: unknown; initialize: boolean; wantsProgress: boolean };

/** Integers past 2^53 are not exact in JSON numbers, and the SDK refuses them. */
const isId = (v: unknown): boolean => typeof v === "string" || Number.isSafeInteger(v);
const isErrorObject = (e: unknown) => isObject(e) && Number.isInteger(e.code) && typeof e.message === "string";
const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const RESPONSE_KEYS = new Set(["jsonrpc", "id", "result", "error"]);

/** Why `m` is not a JSON-RPC 2.0 message the SDK accepts, or undefined when it is one. */
function jsonRpcProblem(m: unknown): string | undefined {
  if (!isObject(m)) return "a message must be a JSON object";
  if (m.jsonrpc !== "2.0") return 'a message needs "jsonrpc": "2.0"';
  const request = "method" in m;
  if (request && typeof m.method !== "string") return '"method" must be a string';
  if (!request && !("result" in m) && !("error" in m))
    return 'a message needs a "method" (request or notification) or a "result"/"error" (response)';
  if ("id" in m && !isId(m.id)) return '"id" must be a string or an integer';
  if (request && m.params !== undefined) {
    if (!isObject(m.params)) return '"params" must be an object';
    const meta = m.params._meta;
    if (meta !== undefined && (!isObject(meta) || (meta.progressToken !== undefined && !isId(meta.progressToken))))
      return '"params._meta" must be an object whose progressToken is a string or an integer';
  }
  if (!request && "result" in m && !isObject(m.result)) return '"result" must be an object';
  if (!request && "error" in m && !isErrorObject(m.error))
    return '"error" must be an object with an integer "code" and a string "message"';
  const extra = Object.keys(m).filter((k) => !(request ? REQUEST_KEYS : RESPONSE_KEYS).has(k));
  if (extra.length === 0) return undefined;
  return `unexpected field(s) ${extra.map((k) => clip(k)).join(", ")} in a ${request ? "request" : "response"}`;
}

const { InvalidRequest, InvalidParams, ParseError } = ProtocolErrorCode;

/** The body parsed, or the refusal: too large, not JSON, too deep, or the parser busy. */
async function parseBody(req: Request, maxBytes: number, reader?: BodyReader): Promise<{ body: unknown } | Response> {
  const bytes = await (reader ? reader(maxBytes) : readWebBody(req, maxBytes));
  if (bytes === undefined) {
    const limit = `${megabytes(maxBytes)} (${maxBytes} bytes)`;
    return jsonRpcError(413, InvalidRequest, `Request body too large: the limit is ${limit}.`);
  }
  const parsed = await parseJson(bytes, MAX_DEPTH);
  if (parsed.kind === "parsed") return { body: parsed.value };
  if (parsed.kind === "invalid")
    return jsonRpcError(400, ParseError, "Parse error: the body is not valid JSON.", parsed.error);
  if (parsed.kind === "deeper")
    return jsonRpcError(400, InvalidRequest, `Invalid Request: the JSON is nested more than ${MAX_DEPTH} levels deep.`);
  return retryLater(503, "The server is reading other large requests: retry in a second.", 1);
}

/** The refusal of a body that is no batch of JSON-RPC messages the SDK accepts, or undefined. */
function messagesProblem(body: unknown, messages: unknown[]): Response | undefined {
  if (messages.length === 0 || messages.length > MAX_BATCH_SIZE)
    return jsonRpcError(400, InvalidRequest, `Invalid Request: a batch must hold 1 to ${MAX_BATCH_SIZE} messages.`);
  const problems = messages.map(jsonRpcProblem);
  const index = problems.findIndex((problem) => problem !== undefined);
  if (index === -1) return undefined;
  const where = Array.isArray(body) ? ` (message ${index})` : "";
  return jsonRpcError(400, InvalidRequest, `Invalid Request${where}: ${problems[index]}.`);
}

/** The refusal of an `initialize` whose params the SDK would refuse, or undefined. */
function initializeProblem(init: Record<string, unknown>): Response | undefined {
  const parsed = InitializeRequestSchema.safeParse(init);
  if (parsed.success) return undefined;
  const problems = describeIssues(parsed.error.issues, init).join("; ");
  const id = typeof init.id === "string" || typeof init.id === "number" ? init.id : null;
  return jsonRpcError(400, InvalidParams, `Invalid params for initialize: ${problems}.`, undefined, id);
}

export async function readJsonRpcBody(req: Request, maxBytes: number, reader?: BodyReader): Promise<Routed | Response> {
  const read = await parseBody(req, maxBytes, reader);
  if (read instanceof Response) return read;
  const body = read.body;
  noteJsonRpcBody(body);
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const objects = messages.filter(isObject);
  const init = objects.find((m) => m.method === "initialize");
  const problem = messagesProblem(body, messages) ?? (init && initializeProblem(init));
  if (problem) return problem;
  const wantsProgress = objects.some(
    (m) => isObject(m.params) && isObject(m.params._meta) && m.params._meta.progressToken !== undefined,
  );
  return { body, initialize: init !== undefined, wantsProgress };
}
