/**
 * Entry point: reads the environment (PORT, HOST, ALLOWED_ORIGINS; STORE = sqlite under DATA_DIR,
 * the default, | memory | redis at REDIS_URL; RETENTION_HOURS and the per-subject quotas
 * QUOTA_UNFINISHED_JOBS, QUOTA_JOBS_PER_HOUR, QUOTA_STORED_MB), wires the job system to that
 * store, builds the app and listens. Everything else lives in createApp.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app.js";
import { matchGifts } from "./gifts/matcher.js";
import { createJobService } from "./jobs/job-service.js";
import type { JobLimits } from "./jobs/limits.js";
import type { JobStore } from "./jobs/store.js";
import { createMemoryStore } from "./jobs/stores/memory.js";
import { createRedisStore } from "./jobs/stores/redis.js";
import { createSqliteStore } from "./jobs/stores/sqlite.js";
import { parseOrigins } from "./mcp/http/origin.js";

const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? "127.0.0.1";

function openStore(kind = "sqlite"): JobStore {
  switch (kind) {
    case "sqlite": {
      const dataDir = process.env.DATA_DIR ?? "./data";
      mkdirSync(dataDir, { recursive: true });
      return createSqliteStore(join(dataDir, "giftgenius.db"));
    }
    case "memory":
      return createMemoryStore();
    case "redis":
      return createRedisStore({
        url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
        // one line when the connection drops and one when it is back, however long it takes
        onConnectionChange: (up, error) =>
          up
            ? console.error("jobs: the Redis job store is reachable again.")
            : console.error(`jobs: the Redis job store is unreachable (${describe(error)}); retrying.`),
      });
    default:
      throw new Error(`STORE=${kind} is not a store: use sqlite (the default), memory or redis.`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message || error.name : "connection closed";
}

/** A positive number from the environment variable `name`, or undefined when it is not set. */
function positive(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`${name}=${text} is not a positive number.`);
  return value;
}

const hours = positive("RETENTION_HOURS");
const storedMb = positive("QUOTA_STORED_MB");
const limits: Partial<JobLimits> = {
  retentionMs: hours === undefined ? undefined : hours * 60 * 60 * 1000,
  maxUnfinishedPerSubject: positive("QUOTA_UNFINISHED_JOBS"),
  maxStartsPerHour: positive("QUOTA_JOBS_PER_HOUR"),
  maxStoredBytesPerSubject: storedMb === undefined ? undefined : storedMb * 1024 * 1024,
};

// development only: a request may slow its job down to watch it in the harness
const devPace = process.env.GIFTGENIUS_DEV === "1";
const jobs = createJobService({
  store: openStore(process.env.STORE),
  match: matchGifts,
  limits,
  onError: (error, context) => console.error(`jobs: ${context}:`, error),
});
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
