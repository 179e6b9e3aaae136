/** The job system as the configuration sets it up, for the server and the worker alike. */
import { resolve } from "node:path";
import type { Config } from "./config.js";
import { createLogger, errorFields, type Logger } from "./observability/logger.js";
import { filesFromConfig, type FilesSetup } from "./files/files-env.js";
import { matchGifts } from "./gifts/matcher.js";
import { createBullmqExecutor } from "./jobs/executor-bullmq.js";
import { createJobService, type JobService, type JobServiceOptions } from "./jobs/job-service.js";
import type { JobStore } from "./jobs/store.js";
import { createMemoryStore } from "./jobs/stores/memory.js";
import { createRedisStore } from "./jobs/stores/redis.js";
import { createOutageLog } from "./observability/outage-log.js";
import { isConnectionFault, outageListener, redisHost } from "./redis/connection.js";
import { createSqliteStore } from "./jobs/stores/sqlite.js";
import { storageProblem } from "./store-errors.js";

/** The database under `dataDir`; when it cannot be opened, an error whose message says why and what to do. */
function openSqlite(dataDir: string): JobStore {
  const file = resolve(dataDir, "giftgenius.db");
  try {
    return createSqliteStore(file);
  } catch (error) {
    const problem = storageProblem(error);
    if (problem === undefined) throw error;
    throw new Error(
      `Cannot open the job database ${file}: ${problem}. Set DATA_DIR to a directory this user can write, ` +
        `or use STORE=memory to keep jobs in memory only.`,
      { cause: error },
    );
  }
}

/** The job service, and the staff files' setup that the server (not the worker) serves. */
export function serverFromConfig(
  config: Config,
  log: Logger = createLogger({ role: "server" }),
  extras: Pick<JobServiceOptions, "beforeSlice"> = {},
): { jobs: JobService; files: FilesSetup } {
  // a lost Redis is told by its outage log, once: its faults need no line each, nor a stack
  const onError = (error: unknown, context: string) =>
    void (isConnectionFault(error) || log.error({ ...errorFields(error), context }, `jobs: ${context}`));
  const stored = storeFromConfig(config, log);
  // the service owns and closes the store; others may read it while the app runs
  const jobs = createJobService({ ...stored, match: matchGifts, limits: config.limits, onError, ...extras });
  return { jobs, files: filesFromConfig(config, stored.store) };
}

/** The store the configuration names, and with Redis the BullMQ executor of this process. */
function storeFromConfig(config: Config, log: Logger): Pick<JobServiceOptions, "store" | "executor"> {
  if (config.store === "sqlite") return { store: openSqlite(config.dataDir) };
  if (config.store === "memory") return { store: createMemoryStore() };
  const { url, keyPrefix } = config.redis;
  const outage = createOutageLog({
    dependency: `Redis at ${redisHost(url)}`,
    print: (line) => log.warn(`jobs: ${line}`),
  });
  const store = createRedisStore({
    url,
    keyPrefix,
    onConnectionChange: outageListener(outage.part("the job store and queue")),
  });
  const executor = createBullmqExecutor({
    url,
    connection: store.connection,
    onWorkerConnectionChange: outageListener(outage.part("the job worker")),
    prefix: `${keyPrefix}queue`,
    ...config.workers,
  });
  return { store, executor };
}
