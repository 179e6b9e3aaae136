/**
 * The tools as data: each `ToolSpec` carries its zod schemas and handler. The registry builds the
 * `tools/list` answer once; `call` checks scopes and arguments and turns failures into results.
 */
import { randomUUID } from "node:crypto";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import * as z from "zod/mini";
import type {
  AuthInfo,
  CallToolResult as SdkCallToolResult,
  ContentBlock,
  LoggingLevel,
  ServerContext,
  Tool,
  ToolAnnotations,
} from "@modelcontextprotocol/server";
import { ToolErrorSchema, type ToolError } from "../../shared/errors.js";
import { VIEW_ID_META_KEY, type ToolName } from "../../shared/tools.js";
import { subjectOf } from "../auth/subject.js";
import type { Currency } from "../../shared/money.js";
import type { FileLinks } from "../files/export/file-links.js";
import type { StaffFiles } from "../files/staff-files.js";
import type { MatchGifts } from "../gifts/matcher.js";
import type { Caller } from "../jobs/caller.js";
import type { RunOptions } from "../jobs/executor.js";
import type { JobService } from "../jobs/job-service.js";
import { clip, describeIssues } from "../input-errors.js";
import { noteToolResult } from "../observability/request-context.js";
import type { Outcome } from "../outcomes.js";
import { rendersWidget, toolMeta, type ToolUi, type Widget } from "../widget.js";

/** Reads a start's request `_meta` for the job's run options (StartOptions.runOptions). */
export type RunOptionsOf = (requestMeta: Record<string, unknown>) => RunOptions | undefined;

/** What the tools are built from, once per app. */
export type ToolDeps = {
  jobs: JobService;
  widget: Widget;
  matchGifts: MatchGifts;
  files: StaffFiles;
  fileLinks: FileLinks;
  /** The cheapest price in the catalog in each currency: the smallest budget that can work. */
  cheapestPrice: Record<Currency, number>;
  runOptionsOf: RunOptionsOf;
};

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
  /** A log line on the request's own stream (2026-07-28); a 2025-11-25 session hears its jobs on its stream. */
  log?: (level: LoggingLevel, text: string) => void;
};

export function callerOf(ctx: ServerContext): Caller {
  return { subject: subjectOf(ctx.http?.authInfo), sessionId: ctx.sessionId };
}

/** The context of a call answered without a stream (direct-call.ts): no progress, no log lines. */
export function requestContext(req: Request, meta: Record<string, unknown>, auth?: AuthInfo): ToolContext {
  return {
    caller: { subject: subjectOf(auth) },
    scopes: auth?.scopes,
    // read by few calls: parsed and made (node-body.ts) only when read
    get origin() {
      return new URL(req.url).origin;
    },
    get signal() {
      return req.signal;
    },
    meta,
    progress: () => {},
  };
}

/** The tool context of a request; `modern` (2026-07-28) gives it its own log lines. */
export function toolContext(ctx: ServerContext, modern: boolean): ToolContext {
  const meta = (ctx.mcpReq._meta ?? {}) as Record<string, unknown>;
  const token = meta.progressToken as string | number | undefined;
  return {
    caller: callerOf(ctx),
    scopes: ctx.http?.authInfo?.scopes,
    origin: ctx.http?.req ? new URL(ctx.http.req.url).origin : undefined,
    signal: ctx.mcpReq.signal,
    meta,
    log: modern ? (level, text) => void ctx.mcpReq.log(level, text, "jobs").catch(() => {}) : undefined,
    progress: (progress, total, message) => {
      if (token === undefined) return;
      const params = { progressToken: token, progress, total, message };
      ctx.mcpReq.notify({ method: "notifications/progress", params }).catch(() => {});
    },
  };
}

/** A tool's result: the SDK's, whose `structuredContent` is always an object here. */
export type CallToolResult = SdkCallToolResult & { structuredContent?: Record<string, unknown> };

/** A value as `structuredContent`, with a text the model can read. */
export function success(structured: Record<string, unknown>, text: string, more: ContentBlock[] = []): CallToolResult {
  return { content: [{ type: "text", text }, ...more], structuredContent: structured };
}

/** A domain failure the caller can fix or retry: `isError`, and a sentence that says what to do next. */
export function failure(error: ToolError): CallToolResult {
  const text = error.hint ? `${error.message} ${error.hint}` : error.message;
  return { content: [{ type: "text", text }], structuredContent: { error }, isError: true };
}

type ToolBase<I extends z.ZodMiniObject, R = CallToolResult> = {
  name: ToolName;
  title: string;
  description: string;
  input: I;
  /** An object schema, or a union of them (one result shape or another). */
  output: z.ZodMiniType;
  annotations: ToolAnnotations;
  run(args: z.output<I>, ctx: ToolContext): Promise<R> | R;
};

export type ToolSpec<I extends z.ZodMiniObject = z.ZodMiniObject> = ToolBase<I> & { meta: Record<string, unknown> };

/**
 * A tool as its file writes it: how the widget shows it or calls it (`ui`), and any `_meta` of its
 * own. A handler with `say` returns the job service's outcome: its value a `success` in the words
 * `say` makes of it, its error a `failure`.
 */
type ToolDefinition<I extends z.ZodMiniObject, O extends Record<string, unknown>> = {
  ui?: ToolUi;
  meta?: Record<string, unknown>;
} & (
  | ToolBase<I>
  | (ToolBase<I, Outcome<O>> & { say: (value: O, args: z.output<I>) => string; links?: (value: O) => ContentBlock[] })
);

/** A tool made from the app's deps, its `_meta` from `ui`; ties the handler's arguments to `input`. */
export const defineTool =
  <I extends z.ZodMiniObject, O extends Record<string, unknown>>(define: (deps: ToolDeps) => ToolDefinition<I, O>) =>
  (deps: ToolDeps): ToolSpec<I> => {
    const { ui = {}, meta, ...tool } = define(deps);
    const spec = { ...tool, meta: { ...toolMeta(deps.widget, ui), ...meta } };
    if (!("say" in spec)) return spec;
    const { say, links, ...rest } = spec;
    const run = async (args: z.output<I>, ctx: ToolContext) => {
      const outcome = await spec.run(args, ctx);
      return outcome.ok
        ? success(outcome.value, say(outcome.value, args), links?.(outcome.value))
        : failure(outcome.error);
    };
    return { ...rest, run };
  };

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

/** The optional object and array arguments: some hosts' forms (MCPJam's) send `{}` or `[]` for "not given". */
function optionalContainers({ properties = {}, required = [] }: Tool["inputSchema"]): Map<string, unknown> {
  const types = Object.entries(properties).map(([key, p]) => [key, (p as { type?: unknown } | null)?.type] as const);
  return new Map(types.filter(([key, type]) => !required.includes(key) && (type === "object" || type === "array")));
}

/** `args` without the optional containers sent empty. */
function withoutEmptyContainers(args: unknown, containers: ReadonlyMap<string, unknown>): unknown {
  if (typeof args !== "object" || args === null) return args;
  const empty = ([key, value]: [string, unknown]) =>
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).length === 0 &&
    containers.get(key) === (Array.isArray(value) ? "array" : "object");
  const entries = Object.entries(args);
  return entries.some(empty) ? Object.fromEntries(entries.filter((entry) => !empty(entry))) : args;
}

function describe(spec: ToolSpec, security: ToolSecurity | undefined): Tool & { securitySchemes: unknown[] } {
  const securitySchemes = security ? [{ type: "oauth2", scopes: security.scopes }] : [{ type: "noauth" }];
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: objectSchema(spec.input, "input"),
    // The SDK client checks `structuredContent` against this even on `isError` results.
    outputSchema: objectSchema(z.union([spec.output, ErrorEnvelope]), "output"),
    annotations: { title: spec.title, ...spec.annotations },
    // the field as hosts read it, and in _meta for clients whose schema drops unknown fields
    securitySchemes,
    _meta: { ...spec.meta, securitySchemes },
  };
}

/** A call whose token lacks scopes: the host reads the challenge and asks the user to sign in again. */
function signInRequired(security: ToolSecurity, missing: string[]): CallToolResult {
  const message = `This needs the scope(s) ${missing.join(" ")}, which your sign-in did not grant.`;
  return {
    ...failure({ code: "unauthorized", message, hint: "Sign in again and grant them, then call the tool again." }),
    _meta: { "mcp/www_authenticate": [security.challenge("insufficient_scope", message)] },
  };
}

/**
 * Builds the registry; `onError` hears of handlers that threw. A rendering tool's result carries a
 * fresh view id (`_meta.viewUUID`), under which the widget keeps its card's state.
 */
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
  async function run(name: string, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
    const spec = byName.get(name);
    const tool = clip(name);
    if (!spec)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${tool}". Available tools: ${names}.`, {
        tool,
      });
    const missing = security?.scopes.filter((s) => !ctx.scopes?.includes(s)) ?? [];
    if (security && missing.length > 0) return signInRequired(security, missing);
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
    list,
    has: (name: string) => byName.has(name),
    async call(name: string, args: unknown, ctx: ToolContext) {
      const called = await run(name, args, ctx);
      noteToolResult(name, called); // for the request's log line and the metrics
      return rendering.has(name) ? { ...called, _meta: { ...called._meta, [VIEW_ID_META_KEY]: randomUUID() } } : called;
    },
  };
}

export type ToolRegistry = ReturnType<typeof createToolRegistry>;
