/**
 * Entry point: reads the environment (PORT, HOST, ALLOWED_ORIGINS; STORE = sqlite under DATA_DIR,
 * the default, | memory | redis at REDIS_URL), wires the job system to that store, builds the app
 * and listens. Everything else lives in createApp.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app.js";
import { matchGifts } from "./gifts/matcher.js";
import { setHttpTimeouts } from "./http-timeouts.js";
import { createJobService } from "./jobs/job-service.js";
import type { JobStore } from "./jobs/store.js";
import { createMemoryStore } from "./jobs/stores/memory.js";
import { createRedisStore } from "./jobs/stores/redis.js";
import { createSqliteStore } from "./jobs/stores/sqlite.js";
import { storageProblem } from "./jobs/stores/sqlite-errors.js";
import { parseOrigins } from "./mcp/http/origin.js";

const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? "127.0.0.1";

/** The database under DATA_DIR; when it cannot be opened, one line that says why and what to do, and exit 1. */
function openSqlite(dataDir: string): JobStore {
  const file = resolve(dataDir, "giftgenius.db");
  try {
    mkdirSync(dataDir, { recursive: true });
    return createSqliteStore(file);
  } catch (error) {
    const problem = storageProblem(error);
    if (problem === undefined) throw error;
    console.error(
      `Cannot open the job database ${file}: ${problem}. Set DATA_DIR to a directory this user can write, ` +
        `or use STORE=memory to keep jobs in memory only.`,
    );
    process.exit(1);
  }
}

function openStore(kind = "sqlite"): JobStore {
  switch (kind) {
    case "sqlite":
      return openSqlite(process.env.DATA_DIR ?? "./data");
    case "memory":
      return createMemoryStore();
    case "redis":
      return createRedisStore({ url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" });
    default:
      throw new Error(`STORE=${kind} is not a store: use sqlite (the default), memory or redis.`);
  }
}

// development only: a request may slow its job down to watch it in the harness
const devPace = process.env.GIFTGENIUS_DEV === "1";
const jobs = createJobService({
  store: openStore(process.env.STORE),
  match: matchGifts,
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
setHttpTimeouts(server);

const shutdown = () => {
  server.close();
  void close()
    .then(() => jobs.close())
    .then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
