/**
 * A worker process (npm run worker): runs job work from the BullMQ queue against the Redis store
 * (STORE=redis and REDIS_URL, REDIS_PREFIX, WORKERS, JOB_* of the configuration, config.ts), with
 * no HTTP. Any number of them may run beside web instances started with WORKERS=0.
 */
import { orExit, readConfig } from "./config.js";
import { jobsFromConfig } from "./jobs-env.js";

const config = orExit(readConfig);
if (config.store !== "redis") {
  console.error("A worker runs jobs queued in Redis: set STORE=redis (and REDIS_URL).");
  process.exit(1);
}
const jobs = jobsFromConfig(config);
console.log(`GiftGenius worker: running jobs from ${config.redis.url}`);

const shutdown = () => void jobs.close().then(() => process.exit(0));
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
