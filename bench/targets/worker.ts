/**
 * Benchmark target: a worker process (as server/worker.ts) running jobs from the Redis queue the
 * configuration (server/config.ts) names, with no HTTP. Prints `{"port":0}` once its job system is
 * built; ends on SIGTERM.
 */
import { readConfig } from "../../server/config.js";
import { serverFromConfig } from "../../server/jobs-env.js";
import { endWithParent } from "../children.js";

const { jobs } = serverFromConfig(readConfig());
console.log(JSON.stringify({ port: 0 }));

endWithParent();
process.on("SIGTERM", () => void jobs.close().finally(() => process.exit(0)));
