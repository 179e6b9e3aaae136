/**
 * Observability as a process sets it up: job lines and metrics (job-watch.ts), the metrics listener,
 * and for a server the HTTP edge (http-observer.ts) with /livez and /readyz in front of the app.
 * Live checks nothing else, so a slow store never gets a live process restarted; ready is the store
 * answering and no drain begun (SIGTERM), so a balancer stops sending before the process stops.
 */
import { Hono, type Context, type Env } from "hono";
import type { Config } from "../config.js";
import { openQueue } from "../jobs/executor-bullmq.js";
import type { JobService } from "../jobs/job-service.js";
import { openRedis } from "../redis/connection.js";
import { HttpObserver } from "./http-observer.js";
import { JobWatch } from "./job-watch.js";
import { errorFields, type Logger } from "./logger.js";
import { Metrics, serveMetrics, type MetricsServer } from "./metrics.js";

export function observeProcess(config: Config, jobs: JobService, logger: Logger) {
  const metrics = config.metrics ? new Metrics() : undefined;
  // a full store still answers, reads and the deletes that free room: up (ready), as /healthz says "degraded"
  const probe = async () => {
    const timed = metrics?.storeRoundTrip.startTimer();
    const health = await jobs.health();
    const up = health.store !== "unreachable";
    metrics?.storeUp.set(up ? 1 : 0);
    if (up) timed?.();
    return { health, up };
  };
  let draining = false;
  const watch = new JobWatch(jobs, logger, metrics);
  const http = new HttpObserver(logger, metrics);
  // with Redis, jobs wait in BullMQ's queue, which every instance sees; otherwise in this process
  const queue = metrics && config.store === "redis" ? bullmqDepth(config.redis.url, config.redis.keyPrefix) : undefined;
  metrics?.source({
    queue: queue ? () => queue.depth() : watch.depth,
    openStreams: http.openStreams,
    probeStore: probe,
  });
  let server: MetricsServer | undefined;
  return {
    metrics,
    drain: () => void (draining = true),
    http,
    /** The app behind the edge: every request observed, /livez and /readyz first. */
    wrap<E extends Env>(app: Hono<E>) {
      const root = new Hono<E>();
      root.use("*", http.middleware);
      root.get("/livez", (c) => c.json({ status: "ok" }));
      root.get("/readyz", async (c: Context) => {
        if (draining) return c.json({ status: "draining" }, 503);
        const { health, up } = await probe();
        const reason = "reason" in health ? { reason: health.reason } : {};
        return c.json({ status: up ? "ready" : "unavailable", store: health.store, ...reason }, up ? 200 : 503);
      });
      return root.route("/", app);
    },
    /** Listens for scrapes, when metrics are on, and says where; a port it cannot take ends the process. */
    async listen() {
      if (!metrics || !config.metrics) return;
      const { host, port } = config.metrics;
      try {
        server = await serveMetrics(metrics, host, port);
      } catch (error) {
        logger.fatal(errorFields(error), `Metrics cannot listen on ${host}:${port}: set METRICS_PORT to a free port.`);
        process.exit(1);
      }
      logger.info(`Metrics: ${server.url}`);
    },
    async close() {
      watch.stop();
      await server?.close();
      await queue?.close();
    },
  };
}

/** BullMQ's counts of waiting and active jobs, on a connection only a scrape uses; none when Redis is down. */
function bullmqDepth(url: string, keyPrefix: string) {
  const redis = openRedis(url);
  // errors are the scrape's (no value) and the job store's outage log's to tell
  redis.on("error", () => {});
  const queue = openQueue(redis, `${keyPrefix}queue`, () => {});
  return {
    depth: () =>
      queue.getJobCounts("waiting", "prioritized", "delayed", "active").then(
        (counts) => ({ waiting: counts.waiting + counts.prioritized + counts.delayed, active: counts.active }),
        () => undefined,
      ),
    async close() {
      await queue.close();
      redis.disconnect();
    },
  };
}
