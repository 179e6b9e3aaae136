/**
 * Builds the HTTP app: /mcp (origin-checked, CORS, behind sign-in when configured, with its
 * /.well-known metadata), /healthz, /files, and at / the harness (development) or a landing page.
 * Owns the MCP sessions; the job service is the caller's and is not closed here.
 */
import { ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { HttpBindings } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type ErrorHandler, type Handler, type MiddlewareHandler } from "hono";
import { except } from "hono/combine";
import { cors } from "hono/cors";
import { secureHeaders } from "hono/secure-headers";
import { createBearerAuth, type BearerAuth } from "./auth/bearer-auth.js";
import { createFileLinks, type FileLinkOptions } from "./files/export/file-links.js";
import { createFileRoute, type FileRouteOptions } from "./files/export/file-route.js";
import type { AuthOptions } from "./auth/auth-options.js";
import { createDevFiles, socketOrigin, type DevFiles } from "./dev-files.js";
import { openStaffFiles, type FilesSetup } from "./files/files-env.js";
import type { Notice } from "./files/file-words.js";
import { matchGifts as defaultMatcher, type MatchGifts } from "./gifts/matcher.js";
import type { JobService } from "./jobs/job-service.js";
import { StoreUnavailableError } from "./store-errors.js";
import { jsonRpcError, retryLater } from "./json-rpc-error.js";
import { createMcpParts, SERVER_INFO } from "./mcp/server.js";
import type { RunOptionsOf } from "./mcp/tool-registry.js";
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from "./mcp/http/streamable-http.js";
import { readNodeBody, withCloseSignal } from "./http/node-body.js";
import { isAllowedHost, isAllowedOrigin } from "./origin.js";
import { traceMcpRequests } from "./observability/tracing.js";
import { loadWidget, type Widget } from "./widget.js";

/**
 * Room for the largest CSV however JSON escapes it (`\uXXXX`, Python's ensure_ascii: at most 3×
 * as long), plus 1 MB, so it gets the service's answer rather than a bare 413.
 */
const defaultMaxBodyBytes = (maxCsvBytes: number): number => 3 * maxCsvBytes + 1024 * 1024;

/** The /mcp handler's options, passed as they are, besides those given here. */
export type AppOptions = Omit<McpHttpOptions, "parts" | "maxBodyBytes" | "onError"> & {
  jobs: JobService;
  matchGifts?: MatchGifts;
  /** Defaults to dist/widget/index.html. */
  widgetHtmlPath?: string;
  /** Browser origins allowed on /mcp besides this server's own loopback origin. */
  allowedOrigins?: readonly string[];
  /** Host names answered besides loopback ones (others get 403, against DNS rebinding); `"any"`: no check. */
  allowedHosts?: readonly string[] | "any";
  maxBodyBytes?: number;
  /** Sign-in (OAuth 2.1 bearer tokens); without it every caller is "anonymous". */
  auth?: AuthOptions;
  /** Served at / when set (the built harness, in development); unset, / answers a landing page. */
  staticDir?: string;
  onError?: (error: unknown) => void;
  /** Hears what the operator should know but no caller is told in full (a download's cause). */
  onNotice?: Notice;
  /** The widget's own origin in hosts that give each app one (`ui.domain`, `openai/widgetDomain`). */
  widgetDomain?: string;
  /** The run options of the job a start request starts, read from its `_meta` (development). */
  runOptionsOf?: RunOptionsOf;
  files?: FilesSetup;
  /** Development only: the harness hands files over at /dev/files, as ChatGPT's file service would. */
  devFiles?: boolean;
  fileLinks?: FileLinkOptions;
};

type Env = { Bindings: Partial<HttpBindings> };

export type App = ReturnType<typeof createApp>;

/** The app, a count of its open MCP sessions, and `close` for what it opened (the job service stays open). */
export function createApp(options: AppOptions) {
  const { jobs, auth, onError = () => {}, maxBodyBytes = defaultMaxBodyBytes(jobs.limits.maxCsvBytes) } = options;
  const bearer = auth ? createBearerAuth(auth, onError) : undefined;
  const devFiles = options.devFiles ? createDevFiles() : undefined;
  const staffFiles = openStaffFiles(jobs, options.files, {
    // files handed over at /dev/files come from this server's own origin
    extraOrigins: devFiles && (() => devFiles.origins),
    onError,
    onNotice: options.onNotice,
  });
  const links = createFileLinks(options.fileLinks);
  const widget = loadWidget(options.widgetHtmlPath ?? "dist/widget/index.html", options.widgetDomain);
  const parts = createMcpParts({
    jobs,
    matchGifts: options.matchGifts ?? defaultMatcher,
    widget,
    onError,
    runOptionsOf: options.runOptionsOf,
    files: staffFiles,
    security: auth && bearer ? { scopes: auth.scopes, challenge: bearer.challenge } : undefined,
    fileLinks: links,
  });
  // sessions per subject: 100 with sign-in, no cap without
  const maxSessionsPerSubject = options.maxSessionsPerSubject ?? (auth ? 100 : undefined);
  const mcp = createMcpHttpHandler({ ...options, parts, maxBodyBytes, maxSessionsPerSubject, onError });
  const app = new Hono<Env>();
  app.use("*", hostCheck(options.allowedHosts));
  app.use("*", except("/mcp", securityHeaders));
  app.use("/mcp", traceMcpRequests, unbufferedEventStreams);
  app.get("/healthz", healthz(jobs, mcp, widget));
  routeMcp(app, mcp, bearer, new Set(options.allowedOrigins ?? []));
  routeFiles(app, { jobs, links, onError }, devFiles);
  routePages(app, options.staticDir);
  app.onError(answerError(onError));
  return {
    app,
    sessions: () => mcp.sessionCount,
    close: async () => {
      await mcp.close();
      await staffFiles.close();
    },
  };
}

/** A page on a rebinding name reaches nothing here: not /mcp, not the harness. */
function hostCheck(allowedHosts: AppOptions["allowedHosts"]): MiddlewareHandler<Env> {
  const hosts = allowedHosts === "any" ? "any" : new Set(allowedHosts);
  return async (c, next) => {
    // a Request built in-process has no Host header: its URL names the host
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (c.req.path === "/healthz" || isAllowedHost(host, hosts)) return next();
    const message = `Forbidden: this server does not answer to the host name in "${host}". Add it to ALLOWED_HOSTS to allow it.`;
    if (c.req.path === "/mcp") return jsonRpcError(403, ProtocolErrorCode.InvalidRequest, message);
    return c.json({ error: "forbidden_host", message }, 403);
  };
}

/** 503 while the store is unreachable; a full store is "degraded" but 200 (reads and deletes go on). */
function healthz(jobs: JobService, mcp: McpHttpHandler, widget: Widget): Handler<Env> {
  const startedAt = Date.now();
  return async (c) => {
    const health = await jobs.health();
    const up = health.store !== "unreachable";
    return c.json(
      {
        status: health.store === "ok" ? "ok" : up ? "degraded" : "unavailable",
        store: health.store,
        ...(health.store === "ok" ? {} : { reason: health.reason }),
        sessions: mcp.sessionCount,
        widgetBuilt: widget.built,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      },
      up ? 200 : 503,
    );
  };
}

/** /mcp for allowed origins (CORS for browsers), behind the sign-in gate, with its RFC 9728 metadata. */
function routeMcp(app: Hono<Env>, mcp: McpHttpHandler, bearer: BearerAuth | undefined, allowed: Set<string>): void {
  if (bearer) {
    // RFC 9728, at the root and with the resource's path; any page may read it
    const paths = ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"];
    app.on("GET", paths, (c) => c.json(bearer.metadata, 200, { "access-control-allow-origin": "*" }));
  }
  const corsForAllowed = cors({
    origin: (origin, c) => (isAllowedOrigin(origin, c.req.header("host"), allowed) ? origin : null),
    allowMethods: ["GET", "POST", "DELETE"],
    allowHeaders: [
      ...["content-type", "accept", "authorization", "mcp-session-id"],
      ...["mcp-protocol-version", "mcp-method", "mcp-name", "last-event-id"],
    ],
    exposeHeaders: ["mcp-session-id", "www-authenticate"],
  });
  // only browsers send Origin
  const forBrowsers: MiddlewareHandler<Env> = (c, next) => (c.req.header("origin") ? corsForAllowed(c, next) : next());
  app.use("/mcp", forBrowsers);
  app.all("/mcp", async (c) => {
    const origin = c.req.header("origin");
    if (!isAllowedOrigin(origin, c.req.header("host"), allowed)) {
      const message = `Forbidden: origin ${origin} may not call this server. Add it to ALLOWED_ORIGINS to allow it.`;
      return jsonRpcError(403, ProtocolErrorCode.InvalidRequest, message);
    }
    const checked = bearer ? await bearer.check(c.req.header("authorization")) : undefined;
    if (checked && "refusal" in checked) return checked.refusal;
    const { incoming, outgoing } = c.env ?? {};
    const req = outgoing ? withCloseSignal(c.req.raw, outgoing) : c.req.raw;
    return mcp.handle(req, incoming ? (max) => readNodeBody(incoming, max) : undefined, checked?.auth);
  });
}

function routeFiles(app: Hono<Env>, options: FileRouteOptions, devFiles: DevFiles | undefined): void {
  // a file out, by the expiring link export_job_result gave; the link is the credential
  const files = createFileRoute(options);
  // the name after the token is the file's, for hosts that name a download after its URL
  app.get("/files/:token/:name?", (c) => files(c.req.param("token")));
  // the origin is the socket's, never the Host header's: a caller cannot widen where downloads go
  if (devFiles) {
    app.on(["GET", "POST"], ["/dev/files", "/dev/files/:id"], (c) =>
      devFiles.handle(c.req.raw, socketOrigin(c.env?.incoming?.socket)),
    );
  }
}

/**
 * Security headers for everything but /mcp. The harness's widget runs in a sandboxed `srcdoc` frame
 * that inherits this policy: hence inline scripts and styles (one inlined HTML file), blob: workers
 * (off-thread body parsing) and eval (the MCP client compiles output schemas). HSTS is the proxy's.
 */
const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", "'unsafe-inline'", "'unsafe-eval'", "blob:"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:"],
    fontSrc: ["'self'", "data:"],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", "blob:"],
    frameSrc: ["'self'", "blob:", "data:"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  referrerPolicy: "no-referrer",
  xFrameOptions: "DENY",
  strictTransportSecurity: false,
});

/** Every event stream says `X-Accel-Buffering: no`, so nginx and like proxies pass each event on at once. */
export const unbufferedEventStreams: MiddlewareHandler = async (c, next) => {
  await next();
  if (!c.res.headers.get("content-type")?.startsWith("text/event-stream")) return;
  try {
    c.res.headers.set("x-accel-buffering", "no");
  } catch {
    // a response with immutable headers (one passed on from fetch): Hono's `c.header` copies it to say it
    c.header("x-accel-buffering", "no");
  }
};

/** `/` in production: what this server is and where /mcp is; nothing of the deployment. */
const LANDING_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SERVER_INFO.title}</title>
</head>
<body>
<h1>${SERVER_INFO.title} ${SERVER_INFO.version}</h1>
<p>An MCP server that suggests gifts and runs long gift-analysis jobs for MCP Apps hosts.</p>
<p>MCP endpoint (Streamable HTTP): <code>/mcp</code> on this server.</p>
<p>How to connect ChatGPT, Claude, VS Code or another host: see README.md in the GiftGenius repository.</p>
</body>
</html>
`;

function routePages(app: Hono<Env>, staticDir: string | undefined): void {
  if (staticDir) app.on(["GET", "HEAD"], "/*", serveStatic({ root: staticDir }));
  else app.on(["GET", "HEAD"], "/", (c) => c.html(LANDING_PAGE));
  const notFound = { error: "not_found", message: "Nothing here: the MCP endpoint is /mcp." };
  app.on(["GET", "HEAD"], "*", (c) => c.json(notFound, 404));
  // pages are read, never posted to
  app.all("*", (c) => {
    const message = `${c.req.method} is not allowed here: only GET and HEAD.`;
    return c.json({ error: "method_not_allowed", message }, 405, { allow: "GET, HEAD" });
  });
}

/** What no handler answered is still JSON (a JSON-RPC error on /mcp); the details go to the log only. */
function answerError(onError: (error: unknown) => void): ErrorHandler<Env> {
  return (error, c) => {
    if (error instanceof StoreUnavailableError && c.req.path === "/mcp") {
      // a store (Redis) did not answer: worth a retry, not a bug
      return retryLater(503, "The store is unreachable for a moment: try again in a few seconds.", 2);
    }
    onError(error);
    const message = "Internal error: the server could not handle this request. Try again.";
    if (c.req.path === "/mcp") return jsonRpcError(500, ProtocolErrorCode.InternalError, message);
    return c.json({ error: "internal", message }, 500);
  };
}
