/**
 * Traces, on when OTEL_EXPORTER_OTLP_ENDPOINT is set. Until `startTracing` loads tracing-sdk.ts,
 * every call here passes straight through: a process without traces loads none of OpenTelemetry.
 */
import type { MiddlewareHandler } from "hono";
import type * as sdk from "./tracing-sdk.js";
import type { AppendedDraft, QueuedJob, StageSpans, TraceCarrier, TracingSdkOptions } from "./tracing-sdk.js";

export type { TraceCarrier } from "./tracing-sdk.js";

/** The SDK's module once loaded. */
let spans: typeof sdk | undefined;

export type Tracing = { shutdown(): Promise<void> };

/** Turns traces on when `endpoint` (or, in tests, `exporter`) is given. */
export async function startTracing(options: TracingSdkOptions): Promise<Tracing> {
  if (options.endpoint === undefined && options.exporter === undefined) return { shutdown: async () => {} };
  const loaded = await import("./tracing-sdk.js");
  const provider = loaded.registerTracing(options);
  spans = loaded;
  return {
    async shutdown() {
      spans = undefined;
      await provider.shutdown(); // sends the spans still waiting in the batch
    },
  };
}

export const traceMcpRequests: MiddlewareHandler = (c, next) => (spans ? spans.traceRequest(c, next) : next());

/** Names the current request's span by its parsed JSON-RPC body: method, tool, request id. */
export const traceJsonRpcBody = (body: unknown): void => spans?.describeBody(body);

/** Queues a job in a span, handing `add` the trace context for its queue entry (none when off). */
export const traceEnqueue = <T>(jobId: string, add: (carrier?: TraceCarrier) => Promise<T>): Promise<T> =>
  spans ? spans.traceEnqueue(jobId, add) : add(undefined);

/** Runs a job taken from the queue in the trace it was queued in. */
export const traceQueuedRun = <T>(queued: QueuedJob, run: () => Promise<T>): Promise<T> =>
  spans ? spans.traceQueuedRun(queued, run) : run();

const untraced: StageSpans = { appending: (_: readonly AppendedDraft[], append) => append(), end: () => {} };

/** The stage spans of a run starting now, under the span active now. */
export const traceStages = (): StageSpans => (spans ? spans.stages() : untraced);
