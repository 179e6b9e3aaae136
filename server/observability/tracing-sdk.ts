/**
 * The OpenTelemetry SDK, loaded only when traces are on (tracing.ts imports this file then): a
 * Node tracer provider that keeps the active span across awaits, W3C trace context as the
 * propagator, and spans sent in batches to an OTLP/HTTP collector as JSON (or to the exporter a
 * test gives, one by one).
 */
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

export type TracingSdkOptions = {
  /** The collector's OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to its /v1/traces. */
  endpoint?: string;
  /** Instead of the collector: every span to this exporter as it ends (tests). */
  exporter?: SpanExporter;
  /** `service.name` of this process's spans ("giftgenius" for a server, "giftgenius-worker"). */
  serviceName: string;
  serviceVersion?: string;
};

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
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return { shutdown: () => provider.shutdown() };
}
