/**
 * The OpenTelemetry SDK, loaded only when traces are on (tracing.ts imports this file then): a
 * Node tracer provider that keeps the active context across awaits in a slot of the process's
 * async context, W3C trace context as the propagator, and spans sent in batches to an OTLP/HTTP
 * collector as JSON (or to the exporter a test gives, one by one).
 */
import { ROOT_CONTEXT, type Context, type ContextManager } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { contextSlot } from "./async-context.js";

export type TracingSdkOptions = {
  /** The collector's OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to its /v1/traces. */
  endpoint?: string;
  /** Instead of the collector: every span to this exporter as it ends (tests). */
  exporter?: SpanExporter;
  /** `service.name` of this process's spans ("giftgenius" for a server, "giftgenius-worker"). */
  serviceName: string;
  serviceVersion?: string;
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
export function registerTracing({ endpoint, exporter, serviceName, serviceVersion }: TracingSdkOptions): {
  shutdown(): Promise<void>;
} {
  const processor = exporter
    ? new SimpleSpanProcessor(exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint!.replace(/\/+$/, "")}/v1/traces` }));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: serviceName,
      ...(serviceVersion === undefined ? {} : { [ATTR_SERVICE_VERSION]: serviceVersion }),
    }),
    spanProcessors: [processor],
  });
  provider.register({ contextManager: new SlotContextManager(), propagator: new W3CTraceContextPropagator() });
  return { shutdown: () => provider.shutdown() };
}
