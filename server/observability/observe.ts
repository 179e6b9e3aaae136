/**
 * Observability as a process sets it up from its configuration: the job lines and metrics of the
 * jobs it runs (job-watch.ts), and when METRICS_PORT is set the metrics registry with its sources
 * and its listener; for a server also the HTTP edge (http-observer.ts) and /livez and /readyz
 * (health.ts), mounted around the app in front of everything else. The worker, with no HTTP, has
 * the same job lines and metrics.
 */
import { Hono, type Env } from "hono";
import type { Config } from "../config.js";
import type { JobService } from "../jobs/job-service.js";
import { Readiness } from "./health.js";
import { HttpObserver } from "./http-observer.js";
import { JobWatch } from "./job-watch.js";
import type { Logger } from "./logger.js";
import { Metrics } from "./metrics.js";
import { serveMetrics, type MetricsServer } from "./metrics-server.js";
import { bullmqDepth, type QueueDepthReader } from "./queue-depth.js";
import { createStoreProbe } from "./store-probe.js";

type Observed = {
  /** Undefined when metrics are off (METRICS_PORT unset). */
  metrics?: Metrics;
  readiness: Readiness;
  http: HttpObserver;
  /** The app behind the edge: every request observed, /livez and /readyz answered before the app's own checks. */
  wrap<E extends Env>(app: Hono<E>): Hono<E>;
  /** Listens for scrapes when metrics are on; resolves with the URL to scrape. */
  listen(): Promise<string | undefined>;
  close(): Promise<void>;
};

/** Observes the process that `config` describes and whose job service is `jobs`. */
export function observeProcess(config: Config, jobs: JobService, logger: Logger): Observed {
  const metrics = config.metrics ? new Metrics() : undefined;
  const probe = createStoreProbe(() => jobs.health(), metrics);
  const watch = new JobWatch(jobs, logger, metrics);
  const http = new HttpObserver(logger, metrics);
  const readiness = new Readiness(probe);
  // with Redis, jobs wait in BullMQ's queue, which every instance sees; otherwise in this process
  const queue: QueueDepthReader | undefined =
    metrics && config.store === "redis" ? bullmqDepth(config.redis.url, config.redis.keyPrefix) : undefined;
  metrics?.source({
    queue: queue ? () => queue.depth() : watch.depth,
    openStreams: http.openStreams,
    probeStore: probe,
  });
  let server: MetricsServer | undefined;
  return {
    metrics,
    readiness,
    http,
    wrap<E extends Env>(app: Hono<E>) {
      const root = new Hono<E>();
      root.use("*", http.middleware);
      root.get("/livez", readiness.livez);
      root.get("/readyz", readiness.readyz);
      return root.route("/", app);
    },
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
