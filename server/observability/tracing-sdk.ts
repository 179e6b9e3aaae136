/**
 * Traces, loaded only when they are on (tracing.ts): the OpenTelemetry SDK sending to an OTLP/HTTP
 * collector, and the spans: one per MCP request (MCP semantic conventions), a job's queueing, wait
 * and run (W3C trace context in its queue entry), and each stage of a run and its delivery.
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
import * as semconv from "@opentelemetry/semantic-conventions/incubating";
import type { Context as HonoContext, Next } from "hono";
import { asRecord, contextSlot, text } from "./request-context.js";

export type TraceCarrier = Record<string, string>;

/** A queued job as its worker takes it; `queuedAt` in ms. */
export type QueuedJob = { carrier?: TraceCarrier; jobId: string; queuedAt?: number };

/** What a run appends, as far as its spans care: a progress report names its stage. */
export type AppendedDraft = { type: string; payload: object };

export type StageSpans = {
  /** Opens and closes stage spans by `drafts`, then appends them (in a delivery span with the result). */
  appending<T>(drafts: readonly AppendedDraft[], append: () => Promise<T>): Promise<T>;
  /** Ends the stage still open (a run that stopped or failed). */
  end(): void;
};

export type TracingSdkOptions = {
  /** OTEL_EXPORTER_OTLP_ENDPOINT; spans go to its /v1/traces. */
  endpoint?: string;
  /** Instead of the collector: every span to this exporter as it ends (tests). */
  exporter?: SpanExporter;
  serviceName: string;
};

const traceSlot = contextSlot<Context>("trace");

/** The active context in the process's one AsyncLocalStorage (request-context.ts), not a second one of the SDK's. */
const contextManager: ContextManager = {
  active: () => traceSlot.get() ?? ROOT_CONTEXT,
  with: (context, fn, thisArg, ...args) => traceSlot.run(context, () => fn.call(thisArg, ...args)),
  // functions only: nothing in this server binds an event emitter to a context
  bind: (context, target) =>
    typeof target !== "function"
      ? target
      : (function (this: unknown, ...args: unknown[]) {
          return traceSlot.run(context, () => (target as (...a: unknown[]) => unknown).apply(this, args));
        } as typeof target),
  enable: () => contextManager,
  disable: () => contextManager,
};

/** Registers the provider as the API's global one. */
export function registerTracing({ endpoint, exporter, serviceName }: TracingSdkOptions): NodeTracerProvider {
  const processor = exporter
    ? new SimpleSpanProcessor(exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint!.replace(/\/+$/, "")}/v1/traces` }));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [processor],
  });
  provider.register({ contextManager, propagator: new W3CTraceContextPropagator() });
  return provider;
}

const tracer = trace.getTracer("giftgenius");
/** executor-bullmq.ts's JOB_QUEUE. */
const QUEUE = { [semconv.ATTR_MESSAGING_SYSTEM]: "bullmq", [semconv.ATTR_MESSAGING_DESTINATION_NAME]: "jobs" };
const STAGE = "giftgenius.job.stage";

/** Runs `work` with `span` active under `parent`, then ends the span, `finish` having its last word. */
async function within<T>(span: Span, parent: Context, work: () => Promise<T>, finish?: () => void): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    finish?.();
    span.end();
  }
}

/**
 * A span per /mcp request, a child of the caller's `traceparent`: named by the MCP method and target
 * (`tools/call start_bulk_gift_analysis`), from the 2026-07-28 headers or the body (`describeBody`).
 */
export function traceRequest(c: HonoContext, next: Next): Promise<void> {
  const headers = c.req.raw.headers;
  const parent = propagation.extract(context.active(), Object.fromEntries(headers));
  const attributes: Attributes = { [semconv.ATTR_HTTP_REQUEST_METHOD]: c.req.method };
  const version = headers.get("mcp-protocol-version");
  if (version) attributes[semconv.ATTR_MCP_PROTOCOL_VERSION] = version;
  const span = tracer.startSpan(`${c.req.method} /mcp`, { kind: SpanKind.SERVER, attributes }, parent);
  const method = headers.get("mcp-method");
  if (method) describe(span, { method, params: { name: headers.get("mcp-name") ?? undefined } });
  // ended once the answer starts: what a stream sends after that is not part of the request
  return within(span, parent, next, () => {
    // a session's id comes with its request, or with the answer to initialize
    const sessionId = headers.get("mcp-session-id") ?? c.res.headers.get("mcp-session-id");
    if (sessionId) span.setAttribute(semconv.ATTR_MCP_SESSION_ID, sessionId);
    span.setAttribute(semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, c.res.status);
    if (c.res.status >= 500) {
      span.setAttribute(semconv.ATTR_ERROR_TYPE, String(c.res.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  });
}

function describe(span: Span, message: Record<string, unknown>): void {
  const method = text(message.method);
  if (method === undefined) return; // a reply to the server's own request
  span.setAttribute(semconv.ATTR_MCP_METHOD_NAME, method);
  const id = message.id;
  if (typeof id === "string" || typeof id === "number") span.setAttribute(semconv.ATTR_JSONRPC_REQUEST_ID, String(id));
  const params = asRecord(message.params);
  let target: string | undefined;
  if (method === semconv.MCP_METHOD_NAME_VALUE_TOOLS_CALL) {
    target = text(params.name);
    span.setAttribute(semconv.ATTR_GEN_AI_OPERATION_NAME, semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL);
    if (target) span.setAttribute(semconv.ATTR_GEN_AI_TOOL_NAME, target);
  } else if (method === semconv.MCP_METHOD_NAME_VALUE_RESOURCES_READ) {
    target = text(params.uri);
    if (target) span.setAttribute(semconv.ATTR_MCP_RESOURCE_URI, target);
  }
  span.updateName(target ? `${method} ${target}` : method);
}

/** Names the current request's span by the JSON-RPC message its body holds (one; a batch is left as is). */
export function describeBody(body: unknown): void {
  const span = trace.getActiveSpan();
  if (span !== undefined && !Array.isArray(body)) describe(span, asRecord(body));
}

const queued = (jobId: string): Attributes => ({ ...QUEUE, [semconv.ATTR_MESSAGING_MESSAGE_ID]: jobId });

/** A send (producer) or process (consumer) span on the queue, named as the messaging conventions say: `send jobs`. */
function operationSpan(operation: "send" | "process", jobId: string, parent: Context): Span {
  const kind = operation === "send" ? SpanKind.PRODUCER : SpanKind.CONSUMER;
  const attributes = { ...queued(jobId), [semconv.ATTR_MESSAGING_OPERATION_TYPE]: operation };
  return tracer.startSpan(`${operation} jobs`, { kind, attributes }, parent);
}

/** Queues a job in a producer span, handing `add` the trace context the worker continues. */
export async function traceEnqueue<T>(jobId: string, add: (carrier: TraceCarrier) => Promise<T>): Promise<T> {
  const parent = context.active();
  const span = operationSpan("send", jobId, parent);
  const carrier: TraceCarrier = {};
  propagation.inject(trace.setSpan(parent, span), carrier);
  return within(span, parent, () => add(carrier));
}

/** Runs a queued job in a consumer span continuing its trace, after a span for its wait in the queue. */
export function traceQueuedRun<T>({ carrier, jobId, queuedAt }: QueuedJob, run: () => Promise<T>): Promise<T> {
  const parent = propagation.extract(ROOT_CONTEXT, carrier ?? {});
  if (queuedAt !== undefined)
    tracer.startSpan("queue wait", { attributes: queued(jobId), startTime: queuedAt }, parent).end();
  return within(operationSpan("process", jobId, parent), parent, run);
}

/**
 * The stage spans of one run: a `job.progress` naming a new stage ends the last one's span and opens
 * the next; the append that carries `job.completed` is the delivery, in a span of its own.
 */
export function stages(): StageSpans {
  const parent = context.active();
  let stage: { id: string; span: Span } | undefined;
  const end = (): void => {
    stage?.span.end();
    stage = undefined;
  };
  return {
    end,
    async appending(drafts, append) {
      for (const draft of drafts) {
        const id = draft.type === "job.progress" && "stage" in draft.payload ? text(draft.payload.stage) : undefined;
        if (id === undefined || id === stage?.id) continue;
        end();
        stage = { id, span: tracer.startSpan(`stage ${id}`, { attributes: { [STAGE]: id } }, parent) };
      }
      if (!drafts.some((draft) => draft.type === "job.completed")) return append();
      end();
      return within(tracer.startSpan("deliver result", {}, parent), parent, append);
    },
  };
}
