/**
 * Every HTTP request at the edge: an id (a proxy's plain `X-Request-Id`, else new, echoed), its
 * request scope, and once its response has ended (a stream's end) a count, a time and a debug line;
 * tool results by outcome, the delivery lag of their events, and open streams by kind.
 */
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "./logger.js";
import type { Metrics } from "./metrics.js";
import { requestScope, type RequestFacts, type ToolResultLike } from "./request-context.js";

const QUOTA_CODES = new Set(["quota_exceeded", "rate_limited"]);
const LONG_POLL_TOOLS = new Set(["get_job_events", "wait_for_job"]);
const PLAIN_ID = /^[\w.:-]{1,128}$/;

/** The route a path belongs to, for labels and lines: never the path itself, which may hold a link's token. */
function routeOf(path: string): string {
  if (["/mcp", "/healthz", "/livez", "/readyz", "/"].includes(path)) return path;
  return ["/files", "/.well-known"].find((prefix) => path.startsWith(`${prefix}/`)) ?? "other";
}

type Open = { facts: RequestFacts; method: string; route: string };

function streamKind({ facts, method, route }: Open): string | undefined {
  if (route !== "/mcp") return undefined;
  if (method === "GET") return "session_stream";
  if (facts.mcpMethod === "subscriptions/listen") return "listen";
  return facts.tool !== undefined && LONG_POLL_TOOLS.has(facts.tool) ? "long_poll" : undefined;
}

type NodeBindings = { outgoing?: { once(event: "close", listener: () => void): unknown } };

export class HttpObserver {
  private readonly open = new Set<Open>();

  constructor(
    private readonly logger: Logger,
    private readonly metrics?: Metrics,
  ) {}

  openStreams = (): Record<string, number> => {
    const counts: Record<string, number> = { long_poll: 0, listen: 0, session_stream: 0 };
    for (const request of this.open) {
      const kind = streamKind(request);
      if (kind !== undefined) counts[kind]++;
    }
    return counts;
  };

  middleware: MiddlewareHandler = async (c, next) => {
    const started = performance.now();
    const given = c.req.header("x-request-id");
    const facts: RequestFacts = { requestId: given && PLAIN_ID.test(given) ? given : randomUUID() };
    const request: Open = { facts, method: c.req.method, route: routeOf(c.req.path) };
    this.open.add(request);
    await requestScope.run({ facts, onToolResult: this.toolResult }, next);
    try {
      c.res.headers.set("x-request-id", facts.requestId);
    } catch {
      // a response whose headers are immutable goes out without it
    }
    const status = c.res.status;
    const done = () => this.answered(request, status, performance.now() - started);
    const { outgoing } = (c.env ?? {}) as NodeBindings;
    if (outgoing) outgoing.once("close", done);
    else done();
  };

  private answered(request: Open, status: number, ms: number): void {
    this.open.delete(request);
    const { facts, method, route } = request;
    const mcpMethod = facts.mcpMethod ?? "none";
    this.metrics?.httpRequests.inc({ method, route, mcp_method: mcpMethod, status });
    this.metrics?.httpDuration.observe({ method, route, mcp_method: mcpMethod }, ms / 1000);
    this.logger.debug({ ...facts, method, route, status, ms: Math.round(ms) }, "request");
  }

  private toolResult = (tool: string, outcome: string, result: ToolResultLike): void => {
    const metrics = this.metrics;
    if (metrics === undefined) return;
    metrics.toolCalls.inc({ tool, outcome });
    if (QUOTA_CODES.has(outcome)) metrics.quotaRefusals.inc({ code: outcome });
    const events = result.isError ? undefined : result.structuredContent?.events;
    if (!Array.isArray(events)) return;
    const now = Date.now();
    for (const event of events as { timestamp?: unknown }[]) {
      const appended = typeof event.timestamp === "string" ? Date.parse(event.timestamp) : NaN;
      if (!Number.isNaN(appended)) metrics.deliveryLag.observe(Math.max(0, now - appended) / 1000);
    }
  };
}
