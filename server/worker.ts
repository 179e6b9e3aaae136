/**
 * A worker process (npm run worker): runs jobs from the BullMQ queue against the Redis store, with no
 * HTTP but its metrics' listener. Any number may run beside web instances started with WORKERS=0.
 */
import { orExit, readConfig } from "./config.js";
import { pauseAtPace } from "./dev-pace.js";
import { serverFromConfig } from "./jobs-env.js";
import { createLogger } from "./observability/logger.js";
import { observeProcess } from "./observability/observe.js";
import { startTracing } from "./observability/tracing.js";
import { redisHost } from "./redis/connection.js";

const config = orExit(readConfig, createLogger({ role: "worker" }));
const logger = createLogger({ role: "worker", ...config.log });
if (config.store !== "redis") {
  logger.fatal("A worker runs jobs queued in Redis: set STORE=redis (and REDIS_URL).");
  process.exit(1);
}
// before any job is taken, so that each run continues the trace its queue entry carries
const tracing = await startTracing({ endpoint: config.otlpEndpoint, serviceName: "giftgenius-worker" });
// development only: a job started with a pace (dev-pace.ts) pauses before each slice here too
const { jobs } = serverFromConfig(config, logger, config.development ? { beforeSlice: pauseAtPace } : {});
const observed = observeProcess(config, jobs, logger);
logger.info(`GiftGenius worker: running jobs from Redis at ${redisHost(config.redis.url)}`);
void observed.listen();

const shutdown = () => {
  logger.info("shutdown: ending this worker's jobs");
  void jobs
    .close()
    .then(() => observed.close())
    .then(() => tracing.shutdown())
    .then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
