/**
 * Benchmark target: our server with the job system the configuration describes (server/config.ts:
 * STORE, REDIS_URL, REDIS_PREFIX, WORKERS, DATA_DIR) and, on Redis, sessions shared with the other
 * instances, as a deployed instance runs it.
 * Prints `{"port":…}` once it listens; ends on SIGTERM.
 */
import { readConfig } from "../../server/config.js";
import { serverFromConfig } from "../../server/jobs-env.js";
import { clusterSessionsOn } from "../../server/mcp/job-streams.js";
import { outageListener } from "../../server/redis/connection.js";
import { serveTarget } from "./serve.js";

const { jobs, redis } = serverFromConfig(readConfig());
serveTarget(jobs, {
  clusterSessions:
    redis &&
    clusterSessionsOn({ ...redis, onConnectionChange: outageListener(redis.outage.part("the session records")) }),
});
