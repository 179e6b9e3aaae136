/**
 * Benchmark target: our server with the job system the configuration describes (server/config.ts:
 * STORE, REDIS_URL, REDIS_PREFIX, WORKERS, DATA_DIR, INSTANCE_ID), as a deployed instance runs it.
 * Prints `{"port":…}` once it listens; ends on SIGTERM.
 */
import { readConfig } from "../../server/config.js";
import { serverFromConfig } from "../../server/jobs-env.js";
import { serveTarget } from "./serve.js";

const config = readConfig();
serveTarget(serverFromConfig(config).jobs, { instanceId: config.instanceId });
