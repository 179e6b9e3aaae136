/**
 * Benchmark target: our server with the job system the environment describes (server/jobs-env.ts:
 * STORE, REDIS_URL, REDIS_PREFIX, WORKERS, DATA_DIR), as a deployed instance runs it.
 * Prints `{"port":…}` once it listens; ends on SIGTERM.
 */
import { jobsFromEnv } from "../../server/jobs-env.js";
import { serveTarget } from "./serve.js";

const jobs = jobsFromEnv(process.env);
serveTarget(jobs);
