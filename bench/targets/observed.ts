/**
 * Benchmark target: our server observed as `server/main.ts` observes it, as the configuration says
 * (LOG_LEVEL, METRICS_PORT, OTEL_EXPORTER_OTLP_ENDPOINT): pino lines, metrics on their own
 * listener, traces sent over OTLP, and the HTTP observer around the app. The lines go to
 * /dev/null, written in full as they would be to stdout, so that stdout keeps only the `{"port":…}` line.
 * Prints `{"port":…}` once it listens; ends on SIGTERM.
 */
import { createWriteStream } from "node:fs";
import { readConfig } from "../../server/config.js";
import { serverFromConfig } from "../../server/jobs-env.js";
import { createLogger } from "../../server/observability/logger.js";
import { observeProcess } from "../../server/observability/observe.js";
import { startTracing } from "../../server/observability/tracing.js";
import { serveTarget } from "./serve.js";

const config = readConfig();
const logger = createLogger({ role: "server", ...config.log, destination: createWriteStream("/dev/null") });
await startTracing({ endpoint: config.otlpEndpoint, serviceName: "giftgenius" });
const { jobs } = serverFromConfig(config, logger);
const observed = observeProcess(config, jobs, logger);
await observed.listen();
serveTarget(jobs, {}, (app) => observed.wrap(app));
