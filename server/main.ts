/**
 * Entry point: reads the environment (PORT, HOST, DATA_DIR, ALLOWED_ORIGINS), wires the job system
 * to the SQLite store, builds the app and listens. Everything else lives in createApp.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app.js";
import { matchGifts } from "./gifts/matcher.js";
import { createJobService } from "./jobs/index.js";
import { createSqliteStore } from "./jobs/stores/sqlite.js";
import { parseOrigins } from "./origin.js";

const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? "127.0.0.1";
const dataDir = process.env.DATA_DIR ?? "./data";
mkdirSync(dataDir, { recursive: true });

const jobs = createJobService({ store: createSqliteStore(join(dataDir, "giftgenius.db")), match: matchGifts });
const { app, close } = createApp({
  jobs,
  allowedOrigins: parseOrigins(process.env.ALLOWED_ORIGINS),
  staticDir: "dist/harness",
  onError: (error) => console.error(error),
});

const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  console.log(`GiftGenius MCP server: http://${host}:${info.port}/mcp`);
});

const shutdown = () => {
  server.close();
  void close().then(() => jobs.close()).then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
