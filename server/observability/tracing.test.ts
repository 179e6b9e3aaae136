/**
 * Traces in one process, through the SDK's in-memory exporter: off, every call passes through
 * with no trace context; on, an MCP request's span continues the caller's trace with the MCP
 * attributes, and a job queued in it is run in the same trace (queue wait, run, each stage, the
 * delivery) from the context its queue entry carries.
 */
import { SpanKind, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { Hono } from "hono";
import { currentRequest, requestScope } from "./request-context.js";
import {
  startTracing,
  traceEnqueue,
  traceJsonRpcBody,
  traceMcpRequests,
  traceQueuedRun,
  traceStages,
  type TraceCarrier,
  type Tracing,
} from "./tracing.js";

const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

/** An /mcp route that reads its body as the server does and queues a job, answering the queue entry's context. */
function createMcpApp() {
  const app = new Hono();
  app.use("/mcp", traceMcpRequests);
  app.post("/mcp", async (c) => {
    traceJsonRpcBody(await c.req.json());
    const carrier = await traceEnqueue("job_1", async (carrier) => carrier);
    return c.json({ carrier: carrier ?? null }, 200, { "mcp-session-id": "session-1" });
  });
  return app;
}

const callStart = (app: Hono, headers: Record<string, string> = {}) =>
  app.request("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "start_bulk_gift_analysis" } }),
  });

/** A run's appends: each stage entered, then the last report with the completion. */
async function runStages(): Promise<void> {
  const stages = traceStages();
  const progress = (stage: string) => ({ type: "job.progress", payload: { stage } });
  await stages.appending([{ type: "job.started", payload: {} }, progress("parse")], async () => {});
  for (const stage of ["extract", "match", "compose"]) await stages.appending([progress(stage)], async () => {});
  await stages.appending([progress("compose"), { type: "job.completed", payload: {} }], async () => {});
  stages.end();
}

describe("traces", () => {
  it("pass straight through while off: no span, no context for the queue", async () => {
    const app = createMcpApp();
    expect(await (await callStart(app)).json()).toEqual({ carrier: null });
    expect(await traceQueuedRun({ jobId: "job_1" }, async () => "ran")).toBe("ran");
  });

  describe("on", () => {
    const exporter = new InMemorySpanExporter();
    let tracing: Tracing;
    beforeAll(async () => {
      tracing = await startTracing({ exporter, serviceName: "giftgenius-test" });
    });
    afterAll(() => tracing.shutdown());

    it("keep the request's scope and the span in one async context, neither hiding the other", async () => {
      const app = new Hono();
      app.use("/mcp", traceMcpRequests);
      app.post("/mcp", async (c) => {
        await new Promise((resolve) => setImmediate(resolve));
        return c.json({ requestId: currentRequest()?.requestId, span: trace.getActiveSpan()?.spanContext().traceId });
      });
      const answer = await requestScope.run({ facts: { requestId: "request-1" } }, () =>
        callStart(app, { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` }),
      );
      expect(await answer.json()).toEqual({ requestId: "request-1", span: CALLER_TRACE });
    });

    it("make one trace of a call, its job's wait in the queue, its run, each stage and the delivery", async () => {
      const app = createMcpApp();
      const response = await callStart(app, { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` });
      const { carrier } = (await response.json()) as { carrier: TraceCarrier };
      expect(carrier.traceparent).toMatch(new RegExp(`^00-${CALLER_TRACE}-[0-9a-f]{16}-01$`));
      await traceQueuedRun({ carrier, jobId: "job_1", queuedAt: Date.now() - 20 }, runStages);

      const spans = exporter.getFinishedSpans();
      const named = (name: string) => spans.find((s) => s.name === name)!;
      const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
      expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([CALLER_TRACE]));
      const call = named("tools/call start_bulk_gift_analysis");
      expect(call.kind).toBe(SpanKind.SERVER);
      expect(parentOf(call)).toBe(CALLER_SPAN);
      expect(call.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "start_bulk_gift_analysis",
        "gen_ai.operation.name": "execute_tool",
        "jsonrpc.request.id": "7",
        "mcp.session.id": "session-1",
      });
      const send = named("send jobs");
      expect([send.kind, parentOf(send)]).toEqual([SpanKind.PRODUCER, call.spanContext().spanId]);
      const wait = named("queue wait");
      const run = named("process jobs");
      expect(parentOf(wait)).toBe(send.spanContext().spanId);
      expect([run.kind, parentOf(run)]).toEqual([SpanKind.CONSUMER, send.spanContext().spanId]);
      const underRun = spans.filter((s) => parentOf(s) === run.spanContext().spanId).map((s) => s.name);
      expect(underRun).toEqual(["stage parse", "stage extract", "stage match", "stage compose", "deliver result"]);
    });
  });
});
