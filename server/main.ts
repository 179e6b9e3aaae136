/**
 * Entry point: reads the environment (PORT, HOST, ALLOWED_ORIGINS; the store and workers: see
 * jobs-env.ts), wires the job system, builds the app and listens. Everything else lives in createApp.
 */
import { serve } from "@hono/node-server";
import { createApp } from "./app.js";
import { jobsFromEnv } from "./jobs-env.js";
import { parseOrigins } from "./mcp/http/origin.js";

const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? "127.0.0.1";

// development only: a request may slow its job down to watch it in the harness
const devPace = process.env.GIFTGENIUS_DEV === "1";
const jobs = jobsFromEnv(process.env);
const { app, close } = createApp({
  jobs,
  allowedOrigins: parseOrigins(process.env.ALLOWED_ORIGINS),
  staticDir: "dist/harness",
  widgetDomain: process.env.WIDGET_DOMAIN || undefined,
  devPace,
  onError: (error) => console.error(error),
});

const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  console.log(`GiftGenius MCP server: http://${host}:${info.port}/mcp`);
  console.log(`Local host harness:    http://${host}:${info.port}/`);
  if (devPace) console.log("Development mode (GIFTGENIUS_DEV=1): the harness may slow jobs down to watch them.");
});
server.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EADDRINUSE") throw error;
  console.error(`Port ${port} on ${host} is already in use: stop what holds it, or set PORT to another port.`);
  process.exit(1);
});
// Idle sockets outlive the usual 60 s idle timeout of proxies and HTTP clients, so a client never
// reuses a socket that the server is closing at that moment (Node's default is 5 s).
if ("keepAliveTimeout" in server) {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}

const shutdown = () => {
  server.close();
  void close()
    .then(() => jobs.close())
    .then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
