/**
 * The tools as data: each `ToolSpec` carries its shared zod schemas and its handler. The
 * `tools/list` answer (JSON Schemas included) is computed once per registry, not per request;
 * `call` checks the caller's scopes and the arguments, and turns failures into results. Each tool
 * declares what sign-in it needs (`securitySchemes`): OAuth 2 scopes with sign-in, none without.
 * An optional object or list argument a host sends empty (`{}`, `[]`) counts as not given. Every result of a tool that
 * renders the widget carries a fresh view id (`_meta.viewUUID`), under which the widget keeps that
 * card's state where the host keeps none.
 */
import { randomUUID } from "node:crypto";
import { ProtocolErrorCode } from "@modelcontextprotocol/server";
import * as z from "zod/mini";
import type { LoggingLevel, Tool, ToolAnnotations } from "@modelcontextprotocol/server";
import { ToolErrorSchema } from "../../shared/errors.js";
import { VIEW_ID_META_KEY, type ToolName } from "../../shared/tools.js";
import type { Caller } from "../jobs/caller.js";
import { clip, describeIssues } from "../input-errors.js";
import { noteToolResult } from "../observability/request-context.js";
import { JsonRpcError } from "./rpc-error.js";
import { failure, type CallToolResult } from "./tool-results.js";
import { rendersWidget } from "../widget.js";

export type ToolContext = {
  caller: Caller;
  /** Aborted when the request is canceled or its connection closes. */
  signal: AbortSignal;
  /** The origin the request reached (`http://127.0.0.1:8787`), for links back to this server. */
  origin?: string;
  /** The request's `_meta` (progress token, the host's hints such as `openai/locale`). */
  meta: Record<string, unknown>;
  /** The scopes of the caller's verified token; undefined while sign-in is off. */
  scopes?: readonly string[];
  /** Reports progress when the caller sent a `progressToken`; does nothing otherwise. */
  progress: (progress: number, total: number, message?: string) => void;
  /**
   * A log line on the request's own stream, where the request asked for log lines (2026-07-28's
   * per-request level); 2025-11-25 sessions hear their jobs' lines on their stream instead, so
   * their requests have none.
   */
  log?: (level: LoggingLevel, text: string) => void;
};

export type ToolSpec<I extends z.ZodMiniObject = z.ZodMiniObject> = {
  name: ToolName;
  title: string;
  description: string;
  input: I;
  /** An object schema, or a union of them (one result shape or another). */
  output: z.ZodMiniType;
  annotations: ToolAnnotations;
  meta: Record<string, unknown>;
  run(args: z.output<I>, ctx: ToolContext): Promise<CallToolResult> | CallToolResult;
};

/** Keeps the handler's argument type tied to the input schema. */
export const defineTool = <I extends z.ZodMiniObject>(spec: ToolSpec<I>): ToolSpec<I> => spec;

/** With sign-in: the scopes every tool needs, and the `WWW-Authenticate` challenge asking for them. */
export type ToolSecurity = {
  scopes: string[];
  challenge(error: string, description: string): string;
};

/** What an `isError` result carries, next to the success shape in each advertised output schema. */
const ErrorEnvelope = z.object({ error: ToolErrorSchema });

function objectSchema(schema: z.ZodMiniType, io: "input" | "output"): Tool["inputSchema"] {
  const json = z.toJSONSchema(schema, { target: "draft-7", io });
  // A union has no root `type`; MCP wants an object schema at the root.
  return { ...json, type: "object" } as Tool["inputSchema"];
}

/**
 * The arguments that may be dropped when a host sends them empty, by their type: the optional
 * properties of object or array type. Some hosts' forms (MCPJam's) send every such property of the
 * schema, `{}` or `[]` when the person filled nothing in, beside the real input or alone.
 */
function optionalContainers(inputSchema: Tool["inputSchema"]): Map<string, "object" | "array"> {
  const required = new Set(inputSchema.required ?? []);
  const containers = new Map<string, "object" | "array">();
  for (const [key, property] of Object.entries(inputSchema.properties ?? {})) {
    const type = typeof property === "object" && property !== null && "type" in property ? property.type : undefined;
    if (!required.has(key) && (type === "object" || type === "array")) containers.set(key, type);
  }
  return containers;
}

/** `{}` for an object, `[]` for an array: nothing of the kind the schema wants. */
const isEmptyOf = (type: "object" | "array" | undefined, value: unknown): boolean =>
  type !== undefined &&
  typeof value === "object" &&
  value !== null &&
  Array.isArray(value) === (type === "array") &&
  Object.keys(value).length === 0;

/** `args` without the containers sent empty: an empty form's object or list counts as not given. */
function withoutEmptyContainers(args: unknown, containers: ReadonlyMap<string, "object" | "array">): unknown {
  if (typeof args !== "object" || args === null) return args;
  const dropped = ([key, value]: [string, unknown]) => isEmptyOf(containers.get(key), value);
  const entries = Object.entries(args);
  return entries.some(dropped) ? Object.fromEntries(entries.filter((entry) => !dropped(entry))) : args;
}

/** `result` with a fresh view id in its `_meta`, for the card the host renders with it. */
const withViewId = (result: CallToolResult): CallToolResult => ({
  ...result,
  _meta: { ...result._meta, [VIEW_ID_META_KEY]: randomUUID() },
});

function describe(spec: ToolSpec, security: ToolSecurity | undefined): Tool {
  const securitySchemes = security ? [{ type: "oauth2", scopes: security.scopes }] : [{ type: "noauth" }];
  const tool: Tool & { securitySchemes: unknown[] } = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: objectSchema(spec.input, "input"),
    // The SDK client checks `structuredContent` against this even on `isError` results,
    // so the error envelope is part of the advertised shape.
    outputSchema: objectSchema(z.union([spec.output, ErrorEnvelope]), "output"),
    annotations: { title: spec.title, ...spec.annotations },
    // the field as hosts read it, and in _meta for clients whose schema drops unknown fields
    securitySchemes,
    _meta: { ...spec.meta, securitySchemes },
  };
  return tool;
}

/** A call whose token lacks scopes: the host reads the challenge and asks the user to sign in again. */
function signInRequired(security: ToolSecurity, missing: string[]): CallToolResult {
  const message = `This needs the scope(s) ${missing.join(" ")}, which your sign-in did not grant.`;
  return {
    ...failure({ code: "unauthorized", message, hint: "Sign in again and grant them, then call the tool again." }),
    _meta: { "mcp/www_authenticate": [security.challenge("insufficient_scope", message)] },
  };
}

/** Builds the registry; `onError` hears about handlers that threw; `security` is set with sign-in. */
export function createToolRegistry(
  specs: ToolSpec[],
  onError: (error: unknown) => void = () => {},
  security?: ToolSecurity,
) {
  const byName = new Map<string, ToolSpec>(specs.map((s) => [s.name, s]));
  const names = specs.map((s) => s.name).join(", ");
  const list = { tools: specs.map((spec) => describe(spec, security)) };
  const droppable = new Map(list.tools.map((tool) => [tool.name, optionalContainers(tool.inputSchema)]));
  const rendering = new Set<string>(specs.filter((spec) => rendersWidget(spec.meta)).map((spec) => spec.name));
  /** The call's outcome, before its log line and view id. */
  async function run(name: string, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
    const spec = byName.get(name);
    if (!spec) {
      throw new JsonRpcError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${clip(name)}". Available tools: ${names}.`,
        {
          tool: clip(name),
        },
      );
    }
    if (security) {
      const missing = security.scopes.filter((s) => !ctx.scopes?.includes(s));
      if (missing.length > 0) return signInRequired(security, missing);
    }
    const given = withoutEmptyContainers(args ?? {}, droppable.get(name) ?? new Map());
    const parsed = spec.input.safeParse(given);
    if (!parsed.success) {
      const problems = describeIssues(parsed.error.issues, given);
      return failure({
        code: "invalid_arguments",
        message: `Invalid arguments for ${name}: ${problems.join("; ")}.`,
        hint: "Fix these fields and call the tool again.",
      });
    }
    try {
      return await spec.run(parsed.data, ctx);
    } catch (error) {
      onError(error);
      return failure({
        code: "internal",
        message: `${name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}.`,
        hint: "Try again in a moment.",
      });
    }
  }
  return {
    /** The `tools/list` result, built once. */
    list,
    async call(name: string, args: unknown, ctx: ToolContext) {
      const called = await run(name, args, ctx);
      // its outcome, for the request's log line and the metrics
      noteToolResult(name, called);
      return rendering.has(name) ? withViewId(called) : called;
    },
  };
}
