/**
 * The depth of the BullMQ queue that holds jobs to run on Redis, as the metrics scrape reads it:
 * BullMQ's own counts of waiting (prioritized and delayed included) and active jobs, on a
 * connection of its own that only a scrape uses. A Redis that does not answer gives no value.
 */
import { Queue } from "bullmq";
import { JOB_QUEUE } from "../jobs/executor-bullmq.js";
import { openRedis } from "../redis/connection.js";

export type QueueDepthReader = {
  depth(): Promise<{ waiting: number; active: number } | undefined>;
  close(): Promise<void>;
};

/** Reads the queue under `keyPrefix` (as jobs-env.ts names it) in the Redis at `url`. */
export function bullmqDepth(url: string, keyPrefix: string): QueueDepthReader {
  const redis = openRedis(url);
  // errors are the scrape's (no value) and the job store's outage log's to tell
  redis.on("error", () => {});
  const queue = new Queue(JOB_QUEUE, {
    connection: redis,
    prefix: `${keyPrefix}queue`,
    skipVersionCheck: true,
    skipWaitingForReady: true,
  });
  queue.on("error", () => {});
  return {
    async depth() {
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
