/**
 * Traces, loaded only when traces are on (tracing.ts imports this file then). The OpenTelemetry
 * SDK: a Node tracer provider that keeps the active context across awaits in a slot of the
 * process's async context, W3C trace context as the propagator, and spans sent in batches to an
 * OTLP/HTTP collector as JSON (or to the exporter a test gives, one by one). The spans: one per
 * MCP request, with the MCP semantic conventions' attributes; the queueing of a job, its wait in
 * the queue and its run in a worker, carried across processes as W3C trace context in the job's
 * queue entry; one per stage of the run (parse, extract, match, compose) and the delivery of its
 * result, told apart by the events the run appends.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type ContextManager,
  type Span,
  type TextMapGetter,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_MCP_SESSION_ID,
  ATTR_MESSAGING_DESTINATION_NAME,
  ATTR_MESSAGING_MESSAGE_ID,
  ATTR_MESSAGING_OPERATION_TYPE,
  ATTR_MESSAGING_SYSTEM,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  MCP_METHOD_NAME_VALUE_RESOURCES_READ,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
  MESSAGING_OPERATION_TYPE_VALUE_PROCESS,
  MESSAGING_OPERATION_TYPE_VALUE_SEND,
} from "@opentelemetry/semantic-conventions/incubating";
import type { Context as HonoContext, Next } from "hono";
import { contextSlot } from "./async-context.js";
import { asRecord, text } from "./request-context.js";

/** W3C trace context (`traceparent`, `tracestate`) as a job's queue entry carries it. */
export type TraceCarrier = Record<string, string>;

/** A queued job as its worker takes it: the context it was queued in, its id, when it was queued (ms). */
export type QueuedJob = { carrier?: TraceCarrier; jobId: string; queuedAt?: number };

/** What a run appends, as far as its spans care: a progress report names its stage. */
export type AppendedDraft = { type: string; payload: object };

/** The stage spans of one run (see `JobStageSpans`). */
export type StageSpans = {
  /** Opens and closes stage spans by `drafts`, then appends them (in a delivery span with the result). */
  appending<T>(drafts: readonly AppendedDraft[], append: () => Promise<T>): Promise<T>;
  /** Ends the stage still open (a run that stopped or failed). */
  end(): void;
};

export type TracingSdkOptions = {
  /** The collector's OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to its /v1/traces. */
  endpoint?: string;
  /** Instead of the collector: every span to this exporter as it ends (tests). */
  exporter?: SpanExporter;
  /** `service.name` of this process's spans ("giftgenius" for a server, "giftgenius-worker"). */
  serviceName: string;
};

/**
 * The active OpenTelemetry context, kept in the process's one AsyncLocalStorage (async-context.ts)
 * rather than in the SDK's own, which would be a second one paid for on every promise.
 */
class SlotContextManager implements ContextManager {
  private readonly slot = contextSlot<Context>("trace");

  active(): Context {
    return this.slot.get() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.slot.run(context, () => fn.call(thisArg, ...args));
  }

  /** Functions only: nothing in this server binds an event emitter to a context. */
  bind<T>(context: Context, target: T): T {
    if (typeof target !== "function") return target;
    const fn = target as (this: unknown, ...args: unknown[]) => unknown;
    const enter = (self: unknown, args: unknown[]): unknown => this.with(context, () => fn.apply(self, args));
    return function (this: unknown, ...args: unknown[]) {
      return enter(this, args);
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    return this;
  }
}

/** Registers the provider as the API's global one; resolves to what flushes and stops it. */
export function registerTracing({ endpoint, exporter, serviceName }: TracingSdkOptions): {
  shutdown(): Promise<void>;
} {
  const processor = exporter
    ? new SimpleSpanProcessor(exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint!.replace(/\/+$/, "")}/v1/traces` }));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [processor],
  });
  provider.register({ contextManager: new SlotContextManager(), propagator: new W3CTraceContextPropagator() });
  return { shutdown: () => provider.shutdown() };
}

const tracer = trace.getTracer("giftgenius");
/** BullMQ's queue of jobs to run (executor-bullmq.ts's JOB_QUEUE). */
const QUEUE = { [ATTR_MESSAGING_SYSTEM]: "bullmq", [ATTR_MESSAGING_DESTINATION_NAME]: "jobs" };
const STAGE = "giftgenius.job.stage";

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** Runs `work` in `span` (as the active span, under `parent`), and ends the span after it. */
async function within<T>(span: Span, parent: Context, work: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * A span for each request to /mcp, a child of the caller's `traceparent` when it sends one: named
 * by the MCP method and its target (`tools/call start_bulk_gift_analysis`) once known, from the
 * 2026-07-28 envelope's headers or from the body (`describeBody`), else by the HTTP method.
 */
async function traceRequest(c: HonoContext, next: Next): Promise<void> {
  const headers = c.req.raw.headers;
  const parent = propagation.extract(context.active(), headers, headerGetter);
  const attributes: Attributes = { [ATTR_HTTP_REQUEST_METHOD]: c.req.method };
  const version = headers.get("mcp-protocol-version");
  if (version) attributes[ATTR_MCP_PROTOCOL_VERSION] = version;
  const span = tracer.startSpan(`${c.req.method} /mcp`, { kind: SpanKind.SERVER, attributes }, parent);
  const method = headers.get("mcp-method");
  if (method) describe(span, { method, params: { name: headers.get("mcp-name") ?? undefined } });
  try {
    await context.with(trace.setSpan(parent, span), next);
  } finally {
    // a session's id comes with its request, or with the answer to initialize
    const sessionId = headers.get("mcp-session-id") ?? c.res.headers.get("mcp-session-id");
    if (sessionId) span.setAttribute(ATTR_MCP_SESSION_ID, sessionId);
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, c.res.status);
    if (c.res.status >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(c.res.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(); // once the answer starts: what a stream sends after that is not part of the request
  }
}

function describe(span: Span, message: Record<string, unknown>): void {
  const method = text(message.method);
  if (method === undefined) return; // a reply to the server's own request
  span.setAttribute(ATTR_MCP_METHOD_NAME, method);
  const id = message.id;
  if (typeof id === "string" || typeof id === "number") span.setAttribute(ATTR_JSONRPC_REQUEST_ID, String(id));
  const params = asRecord(message.params);
  let target: string | undefined;
  if (method === MCP_METHOD_NAME_VALUE_TOOLS_CALL) {
    target = text(params.name);
    span.setAttribute(ATTR_GEN_AI_OPERATION_NAME, GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL);
    if (target) span.setAttribute(ATTR_GEN_AI_TOOL_NAME, target);
  } else if (method === MCP_METHOD_NAME_VALUE_RESOURCES_READ) {
    target = text(params.uri);
    if (target) span.setAttribute(ATTR_MCP_RESOURCE_URI, target);
  }
  span.updateName(target ? `${method} ${target}` : method);
}

/** Names the current request's span by the JSON-RPC message its body holds (one; a batch is left as is). */
function describeBody(body: unknown): void {
  const span = trace.getActiveSpan();
  if (span !== undefined && !Array.isArray(body)) describe(span, asRecord(body));
}

/** Queues a job in a producer span, handing `add` the trace context the worker continues. */
async function traceEnqueue<T>(jobId: string, add: (carrier: TraceCarrier) => Promise<T>): Promise<T> {
  const parent = context.active();
  const span = tracer.startSpan(
    "send jobs",
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        ...QUEUE,
        [ATTR_MESSAGING_OPERATION_TYPE]: MESSAGING_OPERATION_TYPE_VALUE_SEND,
        [ATTR_MESSAGING_MESSAGE_ID]: jobId,
      },
    },
    parent,
  );
  const carrier: TraceCarrier = {};
  propagation.inject(trace.setSpan(parent, span), carrier);
  return within(span, parent, () => add(carrier));
}

/**
 * Runs a queued job in a consumer span continuing the trace it was queued in, after a span for
 * its wait in the queue (from when it was queued to now).
 */
function traceQueuedRun<T>({ carrier, jobId, queuedAt }: QueuedJob, run: () => Promise<T>): Promise<T> {
  const parent = propagation.extract(ROOT_CONTEXT, carrier ?? {});
  const attributes = { ...QUEUE, [ATTR_MESSAGING_MESSAGE_ID]: jobId };
  if (queuedAt !== undefined) tracer.startSpan("queue wait", { attributes, startTime: queuedAt }, parent).end();
  const span = tracer.startSpan(
    "process jobs",
    {
      kind: SpanKind.CONSUMER,
      attributes: { ...attributes, [ATTR_MESSAGING_OPERATION_TYPE]: MESSAGING_OPERATION_TYPE_VALUE_PROCESS },
    },
    parent,
  );
  return within(span, parent, run);
}

/**
 * The stage spans of one run, children of the span active when it starts: a `job.progress` that
 * names a new stage ends the last stage's span and opens the next; the append that carries
 * `job.completed` (the result's head and the terminal event, which wakes every follower) is the
 * delivery, in a span of its own.
 */
class JobStageSpans implements StageSpans {
  private readonly parent = context.active();
  private stage?: { id: string; span: Span };

  appending = async <T>(drafts: readonly AppendedDraft[], append: () => Promise<T>): Promise<T> => {
    let completes = false;
    for (const draft of drafts) {
      if (draft.type === "job.completed") completes = true;
      const id = draft.type === "job.progress" && "stage" in draft.payload ? text(draft.payload.stage) : undefined;
      if (id === undefined || id === this.stage?.id) continue;
      this.end();
      this.stage = { id, span: tracer.startSpan(`stage ${id}`, { attributes: { [STAGE]: id } }, this.parent) };
    }
    if (!completes) return append();
    this.end();
    return within(tracer.startSpan("deliver result", {}, this.parent), this.parent, append);
  };

  end = (): void => {
    this.stage?.span.end();
    this.stage = undefined;
  };
}

/** What tracing.ts calls once traces are on. */
export const spanKit = {
  traceRequest,
  describeBody,
  traceEnqueue,
  traceQueuedRun,
  stages: (): StageSpans => new JobStageSpans(),
};
export type SpanKit = typeof spanKit;
