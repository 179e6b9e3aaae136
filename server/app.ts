/**
 * Builds the HTTP app: MCP over Streamable HTTP at /mcp (origin-checked, CORS for allowed
 * origins), /healthz, and optionally static files (the harness). Owns the MCP sessions;
 * the job service is the caller's and is not closed here.
 */
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { HttpBindings } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { matchGifts as defaultMatcher } from "./gifts/matcher.js";
import type { JobService } from "./jobs/job-service.js";
import type { MatchGifts } from "./gifts/matcher.js";
import { jsonRpcError } from "./mcp/http/http-body.js";
import { createMcpShared } from "./mcp/server.js";
import { createMcpHttpHandler } from "./mcp/http/streamable-http.js";
import { readNodeBody } from "./mcp/http/node-body.js";
import { isAllowedOrigin } from "./mcp/http/origin.js";
import { loadWidget } from "./widget.js";

/**
 * 10 MB: above the job service's 8 MB CSV limit once JSON-escaped, so a CSV that is too large
 * gets the service's helpful `input_too_large` result rather than a bare 413.
 */
const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

export type AppOptions = {
  jobs: JobService;
  /** Defaults to the matcher over the shipped catalog. */
  matchGifts?: MatchGifts;
  /** The built widget; defaults to dist/widget/index.html. */
  widgetHtmlPath?: string;
  /** Browser origins allowed on /mcp besides this server's own loopback origin. */
  allowedOrigins?: string[];
  maxBodyBytes?: number;
  /** Idle MCP sessions (no request, no open stream) are closed after this long. */
  sessionIdleMs?: number;
  /** Served at / when set (relative to the working directory), e.g. the built harness. */
  staticDir?: string;
  /** Hears about unexpected errors; quiet by default. */
  onError?: (error: unknown) => void;
  /** The widget's own origin in hosts that give each app one (`ui.domain`, `openai/widgetDomain`). */
  widgetDomain?: string;
  /** Development only: a request may slow its job down to watch it (see start-bulk-analysis.ts). */
  devPace?: boolean;
};

/** Under @hono/node-server the Node request is at hand; elsewhere it is not. */
type Env = { Bindings: Partial<HttpBindings> };

export type App = { app: Hono<Env>; close(): Promise<void> };

export function createApp(options: AppOptions): App {
  const { jobs, allowedOrigins = [], maxBodyBytes = DEFAULT_MAX_BODY_BYTES, onError = () => {} } = options;
  const widget = loadWidget(options.widgetHtmlPath ?? "dist/widget/index.html", options.widgetDomain);
  const shared = createMcpShared({
    jobs,
    matchGifts: options.matchGifts ?? defaultMatcher,
    widget,
    onError,
    devPace: options.devPace ?? false,
  });
  const mcp = createMcpHttpHandler({ shared, maxBodyBytes, sessionIdleMs: options.sessionIdleMs, onError });
  const allowed = new Set(allowedOrigins);
  const startedAt = Date.now();

  const corsForAllowed = cors({
    origin: (origin, c) => (isAllowedOrigin(origin, c.req.header("host"), allowed) ? origin : null),
    allowMethods: ["GET", "POST", "DELETE"],
    allowHeaders: [
      "content-type",
      "accept",
      "authorization",
      "mcp-session-id",
      "mcp-protocol-version",
      "last-event-id",
    ],
    exposeHeaders: ["mcp-session-id"],
  });

  const app = new Hono<Env>();
  // 503 while the job store is unreachable, so that a load balancer or an orchestrator sees it
  app.get("/healthz", async (c) => {
    const health = await jobs.health();
    const up = health.store === "ok";
    return c.json(
      {
        status: up ? "ok" : "unavailable",
        store: health.store,
        ...(up ? {} : { reason: health.reason }),
        sessions: mcp.sessionCount,
        widgetBuilt: widget.built,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      },
      up ? 200 : 503,
    );
  });
  // Only browsers send Origin; other clients skip the CORS work.
  app.use("/mcp", (c, next) => (c.req.header("origin") ? corsForAllowed(c, next) : next()));
  app.all("/mcp", (c) => {
    if (!isAllowedOrigin(c.req.header("origin"), c.req.header("host"), allowed)) {
      return jsonRpcError(
        403,
        ErrorCode.InvalidRequest,
        `Forbidden: origin ${c.req.header("origin")} may not call this server. Add it to ALLOWED_ORIGINS to allow it.`,
      );
    }
    const incoming = c.env?.incoming;
    return mcp.handle(c.req.raw, incoming ? (max) => readNodeBody(incoming, max) : undefined);
  });
  if (options.staticDir) app.use("/*", serveStatic({ root: options.staticDir }));
  // What no handler answered (a body that broke off mid-read, a bug) is still a JSON answer:
  // a JSON-RPC error on /mcp, a small JSON object elsewhere; the details go to the log only.
  app.onError((error, c) => {
    onError(error);
    const message = "Internal error: the server could not handle this request. Try again.";
    if (c.req.path === "/mcp") return jsonRpcError(500, ErrorCode.InternalError, message);
    return c.json({ error: "internal", message }, 500);
  });

  return { app, close: () => mcp.close() };
}
