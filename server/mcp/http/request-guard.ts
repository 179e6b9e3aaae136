/**
 * The edge of both eras: bad params get -32602 naming the expected fields (the SDK answers -32603
 * with its validator's output); 2025-11-25's on `transport.onmessage` and `send` (so batches and SSE
 * work unchanged), where an unknown resource keeps that era's -32002 (the SDK answers 2026-07-28's -32602).
 */
import {
  ProtocolErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type Server,
  type Transport,
} from "@modelcontextprotocol/server";
import * as z from "zod/mini";
import { clip, describeIssues } from "../../input-errors.js";
import { SEVERITY } from "../notifications.js";

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const INVALID_PARAMS: number = ProtocolErrorCode.InvalidParams;

type Checker = (message: Record<string, unknown>) => string[] | undefined;

/** tools/call is the hot path: checked by hand, without a schema parse. */
export function checkToolsCall(message: Record<string, unknown>): string[] | undefined {
  const params = message.params;
  if (!isObject(params)) return ["`params` is required (an object with `name` and optional `arguments`)"];
  const problems: string[] = [];
  if (params.name === undefined) problems.push("`params.name` is required (the tool name, a string)");
  else if (typeof params.name !== "string") problems.push("`params.name` must be a string");
  if (params.arguments !== undefined && !isObject(params.arguments))
    problems.push("`params.arguments` must be an object");
  const unknown = Object.keys(params).filter((k) => k !== "name" && k !== "arguments" && k !== "_meta" && k !== "task");
  if (problems.length > 0 && unknown.length > 0)
    problems.push(`got unexpected field(s) ${unknown.map((k) => clip(k)).join(", ")}`);
  return problems.length > 0 ? problems : undefined;
}

const params = <T extends z.core.$ZodLooseShape>(shape: T) => z.object({ params: z.looseObject(shape) });
const paged = z.object({ params: z.optional(z.looseObject({ cursor: z.optional(z.string()) })) });
const uri = params({ uri: z.string() });

/** An `initialize` the SDK would take: a version, the capabilities and who the client is. */
export const InitializeRequestSchema = params({
  protocolVersion: z.string(),
  capabilities: z.looseObject({}),
  clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
});

function bySchema(schema: z.ZodMiniType): Checker {
  return (message) => {
    const parsed = schema.safeParse(message);
    return parsed.success ? undefined : describeIssues(parsed.error.issues, message);
  };
}

const byUri: [Checker, string] = [bySchema(uri), 'expected params { "uri": string }'];

/** Each method's check, and the params it expects as the error names them. */
const CHECKS: Record<string, [Checker, string?]> = {
  "tools/call": [checkToolsCall, 'expected params { "name": string, "arguments"?: object }'],
  "tools/list": [bySchema(paged)],
  "resources/list": [bySchema(paged)],
  "resources/templates/list": [bySchema(paged)],
  "resources/read": byUri,
  "resources/subscribe": byUri,
  "resources/unsubscribe": byUri,
  "prompts/list": [bySchema(paged)],
  "prompts/get": [
    bySchema(params({ name: z.string(), arguments: z.optional(z.record(z.string(), z.string())) })),
    'expected params { "name": string, "arguments"?: { [name]: string } }',
  ],
  "logging/setLevel": [
    bySchema(params({ level: z.enum(SEVERITY) })),
    'expected params { "level": "debug" | "info" | "notice" | "warning" | "error" | … }',
  ],
};

/** The -32602 response for a request whose params break its schema, or undefined. */
export function paramsError(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
  if (!("method" in message) || !("id" in message)) return undefined;
  const [check, expected] = Object.hasOwn(CHECKS, message.method) ? CHECKS[message.method] : [];
  const problems = check?.(message);
  if (!problems) return undefined;
  const text = `Invalid params for ${message.method}: ${problems.join("; ")}${expected ? ` (${expected})` : ""}.`;
  return { jsonrpc: "2.0", id: message.id, error: { code: INVALID_PARAMS, message: text } };
}

/** An unknown resource's error, as the SDK sends it (-32602 with the `uri`), in 2025-11-25's words (-32002). */
function resourceNotFound(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || message.error.code !== INVALID_PARAMS) return message;
  const { data } = message.error as { data?: { uri?: unknown } };
  if (typeof data?.uri !== "string") return message;
  return { ...message, error: { ...message.error, code: ProtocolErrorCode.ResourceNotFound } };
}

/** Connects `server` to `transport` (its errors to `onError`) behind the guard. */
export async function connectGuarded(server: Server, transport: Transport, onError: (error: Error) => void) {
  transport.onerror = onError;
  await server.connect(transport);
  const deliver = transport.onmessage;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(resourceNotFound(message), options);
  transport.onmessage = (message, extra) => {
    const error = paramsError(message);
    if (error) transport.send(error).catch((e) => onError(e instanceof Error ? e : new Error(String(e))));
    else deliver?.(message, extra);
  };
}
