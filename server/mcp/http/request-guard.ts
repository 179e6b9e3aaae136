/**
 * Checks request params between the transport and the SDK server. The SDK answers params that
 * break a request schema with -32603 and a raw validator dump; here they get -32602 and a message
 * naming the expected fields. Sits on `transport.onmessage`, so batches and SSE work unchanged.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  ErrorCode,
} from "@modelcontextprotocol/sdk/types.js";
import { clip, describeIssues, type SchemaIssue } from "../../input-errors.js";
import { isObject } from "./http-body.js";

type Checker = (message: Record<string, unknown>) => string[] | undefined;

/** tools/call is the hot path: checked by hand, without a schema parse. */
function checkToolsCall(message: Record<string, unknown>): string[] | undefined {
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

type Schema = {
  safeParse(v: unknown): { success: true } | { success: false; error: { issues: readonly SchemaIssue[] } };
};

function bySchema(schema: Schema): Checker {
  return (message) => {
    const parsed = schema.safeParse(message);
    return parsed.success ? undefined : describeIssues(parsed.error.issues, message);
  };
}

const CHECKS: Record<string, Checker> = {
  "tools/call": checkToolsCall,
  "tools/list": bySchema(ListToolsRequestSchema),
  "resources/list": bySchema(ListResourcesRequestSchema),
  "resources/templates/list": bySchema(ListResourceTemplatesRequestSchema),
  "resources/read": bySchema(ReadResourceRequestSchema),
  "resources/subscribe": bySchema(SubscribeRequestSchema),
  "resources/unsubscribe": bySchema(UnsubscribeRequestSchema),
  "prompts/list": bySchema(ListPromptsRequestSchema),
  "prompts/get": bySchema(GetPromptRequestSchema),
  "logging/setLevel": bySchema(SetLevelRequestSchema),
};

const EXPECTED: Record<string, string> = {
  "tools/call": 'expected params { "name": string, "arguments"?: object }',
  "resources/read": 'expected params { "uri": string }',
  "resources/subscribe": 'expected params { "uri": string }',
  "resources/unsubscribe": 'expected params { "uri": string }',
  "prompts/get": 'expected params { "name": string, "arguments"?: { [name]: string } }',
  "logging/setLevel": 'expected params { "level": "debug" | "info" | "notice" | "warning" | "error" | … }',
};

/** The -32602 response for a request whose params break its schema, or undefined. */
function paramsError(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
  if (!("method" in message) || !("id" in message)) return undefined;
  const check = CHECKS[message.method];
  const problems = check?.(message);
  if (!problems) return undefined;
  const expected = EXPECTED[message.method];
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `Invalid params for ${message.method}: ${problems.join("; ")}${expected ? ` (${expected})` : ""}.`,
    },
  };
}

/** Answers bad params itself; passes everything else on to the connected server. */
export function guardRequests(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const error = paramsError(message);
    if (error) transport.send(error).catch((e) => transport.onerror?.(e instanceof Error ? e : new Error(String(e))));
    else deliver?.(message, extra);
  };
}
