/**
 * Entry point: reads the environment (PORT, HOST, ALLOWED_ORIGINS, ALLOWED_HOSTS; the store and
 * workers, retention and quotas: see jobs-env.ts; sign-in: AUTH_ISSUER, PUBLIC_URL, AUTH_SCOPES; sessions: MAX_SESSIONS,
 * MAX_SESSIONS_PER_SUBJECT, SESSION_MIN_IDLE_SECONDS; connections: MAX_CONNECTIONS), wires the job
 * system, builds the app and listens. Everything else lives in createApp.
 */
import { serve } from "@hono/node-server";
import { connectionLimit, limitConnections, openFileLimit } from "./accept-limit.js";
import { createApp } from "./app.js";
import { fileLinksFromEnv } from "./files/export/link-secret.js";
import { envNumber } from "./env-number.js";
import { setHttpTimeouts } from "./http-timeouts.js";
import { readAuthOptions, resourceOf } from "./auth/auth-options.js";
import { checkIssuer } from "./auth/provider-metadata.js";
import { serverFromEnv } from "./jobs-env.js";
import { isLoopback, parseHosts, parseOrigins } from "./mcp/http/origin.js";

const positiveInt = (name: string) => envNumber(process.env, name, "whole, at least 1");

const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? "127.0.0.1";

/** Reads one setting; a setting that cannot work ends the process with its one-line reason. */
function setting<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

const auth = setting(() => readAuthOptions(process.env));
// the issuer as its metadata names it (RFC 8414): a mismatch ends the start in one line, an outage warns
const issuerCheck = auth && (await checkIssuer(auth));
if (issuerCheck) {
  console.error(issuerCheck.line);
  if (issuerCheck.fatal) process.exit(1);
}
const minIdleSeconds = setting(() => positiveInt("SESSION_MIN_IDLE_SECONDS"));
const maxSessions = setting(() => positiveInt("MAX_SESSIONS"));
const maxSessionsPerSubject = setting(() => positiveInt("MAX_SESSIONS_PER_SUBJECT"));
// connections at once: below the open-file limit, so a flood cannot take what the server needs
const maxConnections = setting(() => positiveInt("MAX_CONNECTIONS")) ?? connectionLimit(openFileLimit());
// Host names to answer to besides loopback ones; bound beyond loopback with none named, any Host
const namedHosts = [
  ...parseHosts(process.env.ALLOWED_HOSTS),
  ...(process.env.PUBLIC_URL && URL.canParse(process.env.PUBLIC_URL) ? [new URL(process.env.PUBLIC_URL).hostname] : []),
];
const allowedHosts = namedHosts.length === 0 && !isLoopback(host) ? "any" : namedHosts;
// development only: a request may slow its job down to watch it in the harness
const devPace = process.env.GIFTGENIUS_DEV === "1";
const fileLinks = setting(() => fileLinksFromEnv(process.env));
const { jobs, sharedSessions, files } = setting(() => serverFromEnv(process.env));
const { app, close } = createApp({
  jobs,
  auth,
  maxSessions,
  maxSessionsPerSubject,
  sessionMinIdleMs: minIdleSeconds === undefined ? undefined : minIdleSeconds * 1000,
  allowedOrigins: parseOrigins(process.env.ALLOWED_ORIGINS),
  allowedHosts,
  staticDir: "dist/harness",
  widgetDomain: process.env.WIDGET_DOMAIN || undefined,
  devPace,
  sharedSessions,
  files,
  devFiles: devPace,
  fileLinks,
  onError: (error) => console.error(error),
});

const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  console.log(`GiftGenius MCP server: http://${host}:${info.port}/mcp`);
  console.log(`Local host harness:    http://${host}:${info.port}/`);
  console.log(
    auth
      ? `Sign-in required: bearer tokens from ${auth.issuer} for ${resourceOf(auth)}, scope(s) ${auth.scopes.join(" ")}.`
      : "Sign-in is off (AUTH_ISSUER unset): every caller is the same anonymous user.",
  );
  if (allowedHosts === "any") {
    console.log(`Listening beyond loopback with no ALLOWED_HOSTS or PUBLIC_URL: any Host header is answered.`);
  }
  if (devPace) {
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
limitConnections(server, maxConnections);

const shutdown = () => {
  server.close();
  void close()
    .then(() => jobs.close())
    .then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
