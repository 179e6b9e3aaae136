/**
 * Entry point: reads the configuration (config.ts), checks the sign-in issuer, wires the job
 * system, builds the app and listens. A setting that cannot work ends the start with its one-line
 * reason. Everything else lives in createApp.
 */
import { serve } from "@hono/node-server";
import { connectionLimit, limitConnections, openFileLimit } from "./accept-limit.js";
import { createApp } from "./app.js";
import { resourceOf } from "./auth/auth-options.js";
import { checkIssuer } from "./auth/provider-metadata.js";
import { orExit, readConfig } from "./config.js";
import { fileLinksFromConfig } from "./files/export/link-secret.js";
import { setHttpTimeouts } from "./http-timeouts.js";
import { serverFromConfig } from "./jobs-env.js";

const config = orExit(readConfig);
const { auth, host, port, allowedHosts, development } = config;
// the issuer as its metadata names it (RFC 8414): a mismatch ends the start in one line, an outage warns
const issuerCheck = auth && (await checkIssuer(auth));
if (issuerCheck) {
  console.error(issuerCheck.line);
  if (issuerCheck.fatal) process.exit(1);
}
const { jobs, sharedSessions, files } = orExit(() => serverFromConfig(config));
const { app, close } = createApp({
  jobs,
  auth,
  maxSessions: config.sessions.max,
  maxSessionsPerSubject: config.sessions.maxPerSubject,
  sessionMinIdleMs: config.sessions.minIdleMs,
  allowedOrigins: config.allowedOrigins,
  allowedHosts,
  staticDir: config.serveHarness ? "dist/harness" : undefined,
  widgetDomain: config.widgetDomain,
  // development only: a request may slow its job down to watch it in the harness
  devPace: development,
  sharedSessions,
  files,
  devFiles: development,
  fileLinks: fileLinksFromConfig(config),
  onError: (error) => console.error(error),
});

const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  console.log(`GiftGenius MCP server: http://${host}:${info.port}/mcp`);
  if (config.serveHarness) console.log(`Local host harness:    http://${host}:${info.port}/`);
  console.log(
    auth
      ? `Sign-in required: bearer tokens from ${auth.issuer} for ${resourceOf(auth)}, scope(s) ${auth.scopes.join(" ")}.`
      : "Sign-in is off (AUTH_ISSUER unset): every caller is the same anonymous user.",
  );
  if (allowedHosts === "any") {
    console.log(`Listening beyond loopback with no ALLOWED_HOSTS or PUBLIC_URL: any Host header is answered.`);
  }
  if (development) {
    console.log(
      "Development mode (GIFTGENIUS_DEV=1): the harness may slow jobs down to watch them, and hands files over at /dev/files.",
    );
  }
});
server.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EADDRINUSE") throw error;
  console.error(`Port ${port} on ${host} is already in use: stop what holds it, or set PORT to another port.`);
  process.exit(1);
});
setHttpTimeouts(server);
// connections at once: below the open-file limit, so a flood cannot take what the server needs
limitConnections(server, config.maxConnections ?? connectionLimit(openFileLimit()));

const shutdown = () => {
  server.close();
  void close()
    .then(() => jobs.close())
    .then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
