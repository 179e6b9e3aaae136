/**
 * Entry point: reads the configuration, checks the sign-in issuer, wires the job system, builds and
 * observes the app and listens; stops in the order shutdown.ts gives. The composition root: the
 * development knobs (pace, /dev/files, the harness) enter here.
 */
import { serve } from "@hono/node-server";
import { connectionLimit, limitConnections, openFileLimit, setHttpTimeouts } from "./accept-limit.js";
import { createApp } from "./app.js";
import { paceFromMeta, pauseAtPace } from "./dev-pace.js";
import { resourceOf } from "./auth/auth-options.js";
import { checkIssuer } from "./auth/provider-metadata.js";
import { orExit, readConfig } from "./config.js";
import { fileLinksFromConfig } from "./files/export/file-links.js";
import { serverFromConfig } from "./jobs-env.js";
import { createLogger, errorFields } from "./observability/logger.js";
import { observeProcess } from "./observability/observe.js";
import { createShutdown } from "./observability/shutdown.js";
import { startTracing } from "./observability/tracing.js";

// a configuration that cannot be read is told in the production format, as no other is known yet
const config = orExit(readConfig, createLogger({ role: "server" }));
const { auth, host, port, allowedHosts, development } = config;
const logger = createLogger({ role: "server", ...config.log });
// the issuer as its metadata names it (RFC 8414): a mismatch ends the start in one line, an outage warns
const issuerCheck = auth && (await checkIssuer(auth));
if (issuerCheck) {
  logger[issuerCheck.fatal ? "fatal" : "warn"](issuerCheck.line);
  if (issuerCheck.fatal) process.exit(1);
}
// before the first request and the first job, so that each has its span when traces are on
const tracing = await startTracing({ endpoint: config.otlpEndpoint, serviceName: "giftgenius" });
// development only: a request may slow its job down to watch it in the harness (dev-pace.ts)
const pace = development ? { jobs: { beforeSlice: pauseAtPace }, app: { runOptionsOf: paceFromMeta } } : undefined;
const { jobs, files } = orExit(() => serverFromConfig(config, logger, pace?.jobs), logger);
const observed = observeProcess(config, jobs, logger);
const built = createApp({
  jobs,
  auth,
  maxSessions: config.sessions.max,
  maxSessionsPerSubject: config.sessions.maxPerSubject,
  sessionMinIdleMs: config.sessions.minIdleMs,
  allowedOrigins: config.allowedOrigins,
  allowedHosts,
  staticDir: config.serveHarness ? "dist/harness" : undefined,
  widgetDomain: config.widgetDomain,
  ...pace?.app,
  instanceId: config.instanceId,
  files,
  devFiles: development,
  fileLinks: fileLinksFromConfig(config),
  onError: (error) => logger.error(errorFields(error), "unexpected error"),
  onNotice: (line, detail) => logger.warn(detail, line),
});

/** The endpoint first (tests and scripts wait for it), then what is on. */
function announce(listening: number): void {
  logger.info(`GiftGenius MCP server: http://${host}:${listening}/mcp`);
  if (config.serveHarness) logger.info(`Local host harness:    http://${host}:${listening}/`);
  logger.info(
    auth
      ? `Sign-in required: bearer tokens from ${auth.issuer} for ${resourceOf(auth)}, scope(s) ${auth.scopes.join(" ")}.`
      : "Sign-in is off (AUTH_ISSUER unset): every caller is the same anonymous user.",
  );
  if (allowedHosts === "any") {
    logger.warn(`Listening beyond loopback with no ALLOWED_HOSTS or PUBLIC_URL: any Host header is answered.`);
  }
  if (development) {
    logger.info(
      "Development mode (GIFTGENIUS_DEV=1): the harness may slow jobs down to watch them, and hands files over at /dev/files.",
    );
  }
  void observed.listen();
}

observed.metrics?.source({ sessions: () => built.sessions() });
const server = serve({ fetch: observed.wrap(built.app).fetch, port, hostname: host }, (info) => announce(info.port));
server.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EADDRINUSE") throw error;
  logger.fatal(`Port ${port} on ${host} is already in use: stop what holds it, or set PORT to another port.`);
  process.exit(1);
});
setHttpTimeouts(server);
// connections at once: below the open-file limit, so a flood cannot take what the server needs
limitConnections(server, config.maxConnections ?? connectionLimit(openFileLimit()));

const shutdown = createShutdown({
  logger,
  drain: observed.drain,
  drainMs: config.drainMs,
  stopListening: () => server.close(),
  closeJobs: () => jobs.close(),
  openPolls: () => observed.http.openStreams().long_poll,
  closeRest: async () => {
    await built.close();
    await observed.close();
    await tracing.shutdown(); // the spans still held go out before the exit
  },
  exit: (code) => process.exit(code),
});
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
