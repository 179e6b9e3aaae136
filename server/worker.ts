/**
 * A worker process (npm run worker): runs job work from the BullMQ queue against the Redis store
 * (STORE=redis and the variables of jobs-env.ts; WORKERS jobs at once), with no HTTP. Any number
 * of them may run beside web instances started with WORKERS=0.
 */
import { jobsFromEnv } from "./jobs-env.js";

if (process.env.STORE !== "redis") {
  console.error("A worker runs jobs queued in Redis: set STORE=redis (and REDIS_URL).");
  process.exit(1);
}
const jobs = jobsFromEnv(process.env);
console.log(`GiftGenius worker: running jobs from ${process.env.REDIS_URL ?? "redis://127.0.0.1:6379"}`);

const shutdown = () => void jobs.close().then(() => process.exit(0));
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
