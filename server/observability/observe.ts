/**
 * Observability as a process sets it up from its configuration: the job lines and metrics of the
 * jobs it runs (job-watch.ts), and when METRICS_PORT is set the metrics registry with its sources
 * and its listener; for a server also the HTTP edge (http-observer.ts) and /livez and /readyz
 * (health.ts), mounted around the app in front of everything else. The worker, with no HTTP, has
 * the same job lines and metrics.
 */
import { Hono, type Env } from "hono";
import type { Config } from "../config.js";
import { openQueue } from "../jobs/executor-bullmq.js";
import type { JobService } from "../jobs/job-service.js";
import { openRedis } from "../redis/connection.js";
import { createStoreProbe, Readiness } from "./health.js";
import { HttpObserver } from "./http-observer.js";
import { JobWatch } from "./job-watch.js";
import type { Logger } from "./logger.js";
import { Metrics, serveMetrics, type MetricsServer } from "./metrics.js";

export function observeProcess(config: Config, jobs: JobService, logger: Logger) {
  const metrics = config.metrics ? new Metrics() : undefined;
  const probe = createStoreProbe(() => jobs.health(), metrics);
  const watch = new JobWatch(jobs, logger, metrics);
  const http = new HttpObserver(logger, metrics);
  const readiness = new Readiness(probe);
  // with Redis, jobs wait in BullMQ's queue, which every instance sees; otherwise in this process
  const queue = metrics && config.store === "redis" ? bullmqDepth(config.redis.url, config.redis.keyPrefix) : undefined;
  metrics?.source({
    queue: queue ? () => queue.depth() : watch.depth,
    openStreams: http.openStreams,
    probeStore: probe,
  });
  let server: MetricsServer | undefined;
  return {
    /** Undefined when metrics are off (METRICS_PORT unset). */
    metrics,
    readiness,
    http,
    /** The app behind the edge: every request observed, /livez and /readyz answered before the app's own checks. */
    wrap<E extends Env>(app: Hono<E>) {
      const root = new Hono<E>();
      root.use("*", http.middleware);
      root.get("/livez", readiness.livez);
      root.get("/readyz", readiness.readyz);
      return root.route("/", app);
    },
    /** Listens for scrapes when metrics are on; resolves with the URL to scrape. */
    async listen() {
      if (!metrics || !config.metrics) return undefined;
      server = await serveMetrics(metrics, config.metrics.host, config.metrics.port);
      return server.url;
    },
    async close() {
      watch.stop();
      await server?.close();
      await queue?.close();
    },
  };
}

/**
 * The depth of the BullMQ queue that holds jobs to run on Redis, as the metrics scrape reads it:
 * BullMQ's own counts of waiting (prioritized and delayed included) and active jobs, on a
 * connection of its own that only a scrape uses, under `keyPrefix` (as jobs-env.ts names it). A
 * Redis that does not answer gives no value.
 */
function bullmqDepth(url: string, keyPrefix: string) {
  const redis = openRedis(url);
  // errors are the scrape's (no value) and the job store's outage log's to tell
  redis.on("error", () => {});
  const queue = openQueue(redis, `${keyPrefix}queue`, () => {});
  return {
    async depth(): Promise<{ waiting: number; active: number } | undefined> {
      try {
        const counts = await queue.getJobCounts("waiting", "prioritized", "delayed", "active");
        return { waiting: counts.waiting + counts.prioritized + counts.delayed, active: counts.active };
      } catch {
        return undefined;
      }
    },
    async close() {
      await queue.close();
      redis.disconnect();
    },
  };
}
