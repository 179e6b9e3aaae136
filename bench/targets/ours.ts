/**
 * Benchmark target: our server as `server/main.ts` wires it, with the in-memory job store so no
 * disk is measured. BENCH_MAX_JOBS raises the job concurrency limit (the scale run does).
 * Prints `{"port":…}` once it listens; ends on SIGTERM.
 */
import { serve } from "@hono/node-server";
import { createApp } from "../../server/app.js";
import { matchGifts } from "../../server/gifts/matcher.js";
import { createJobService } from "../../server/jobs/job-service.js";
import { createMemoryStore } from "../../server/jobs/stores/memory.js";
import { endWithParent } from "../children.js";

const maxConcurrentJobs = process.env.BENCH_MAX_JOBS ? Number(process.env.BENCH_MAX_JOBS) : undefined;
// every benchmark client is the same anonymous subject, so the per-subject quotas are lifted
const jobs = createJobService({
  store: createMemoryStore(),
  match: matchGifts,
  limits: {
    maxConcurrentJobs,
    maxUnfinishedPerSubject: Infinity,
    maxStartsPerHour: Infinity,
    maxStoredBytesPerSubject: Infinity,
  },
});
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
