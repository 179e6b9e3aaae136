/**
 * Benchmark target: our server with the job system the environment describes (server/jobs-env.ts:
 * STORE, REDIS_URL, REDIS_PREFIX, WORKERS, DATA_DIR) and, on Redis, sessions shared with the other
 * instances, as a deployed instance runs it.
 * Prints `{"port":…}` once it listens; ends on SIGTERM.
 */
import { serverFromEnv } from "../../server/jobs-env.js";
import { serveTarget } from "./serve.js";

const { jobs, sharedSessions } = serverFromEnv(process.env);
serveTarget(jobs, { sharedSessions });
