/**
 * Benchmark target: our server with the job system the environment describes (server/jobs-env.ts:
 * STORE, REDIS_URL, REDIS_PREFIX, WORKERS, DATA_DIR), as a deployed instance runs it.
 * Prints `{"port":…}` once it listens; ends on SIGTERM.
 */
import { serve } from "@hono/node-server";
import { createApp } from "../../server/app.js";
import { jobsFromEnv } from "../../server/jobs-env.js";
import { endWithParent } from "../children.js";

const jobs = jobsFromEnv(process.env);
const { app, close } = createApp({ jobs, onError: (error) => console.error(error) });

const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(JSON.stringify({ port: info.port }));
});

endWithParent();
process.on("SIGTERM", () => {
  server.close();
  if ("closeAllConnections" in server) server.closeAllConnections();
  void close()
    .then(() => jobs.close())
    .finally(() => process.exit(0));
});
