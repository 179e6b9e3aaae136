/**
 * The job system as the environment sets it up, for the server and the worker process alike:
 * STORE = sqlite under DATA_DIR (the default) | memory | redis at REDIS_URL (keys under
 * REDIS_PREFIX). With Redis, job work runs in BullMQ workers: WORKERS jobs at once in this
 * process (0: none, a web-only instance), JOB_LOCK_MS and JOB_STALLED_CHECK_MS for finding a
 * worker that died, JOB_GRACE_MS before an unfinished job no queue holds is ended. For every
 * store: RETENTION_HOURS and the per-subject quotas QUOTA_UNFINISHED_JOBS, QUOTA_JOBS_PER_HOUR,
 * QUOTA_STORED_MB. Staff files (uploads beside the jobs, FILE_DOWNLOAD_HOSTS): files/files-env.ts.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { envNumber } from "./env-number.js";
import { filesFromEnv, type FilesSetup } from "./files/files-env.js";
import { matchGifts } from "./gifts/matcher.js";
import { createBullmqExecutor } from "./jobs/executor-bullmq.js";
import { createJobService, type JobService } from "./jobs/job-service.js";
import type { JobLimits } from "./jobs/limits.js";
import type { JobStore } from "./jobs/store.js";
import { createMemoryStore } from "./jobs/stores/memory.js";
import { createRedisStore } from "./jobs/stores/redis.js";
import { createOutageLog } from "./jobs/outage-log.js";
import {
  isConnectionFault,
  openRedis,
  redisHost,
  watchConnection,
  type ConnectionListener,
} from "./jobs/stores/redis-connection.js";
import { createSessionRecords } from "./mcp/http/session-records.js";
import type { SharedSessions } from "./mcp/http/streamable-http.js";
import { createSqliteStore } from "./jobs/stores/sqlite.js";
import { storageProblem } from "./jobs/stores/sqlite-errors.js";

type Env = Record<string, string | undefined>;

const count = (env: Env, name: string) => envNumber(env, name, "whole, 0 or more");
const positive = (env: Env, name: string) => envNumber(env, name, "positive");

/** Retention and the per-subject quotas the environment sets; the rest keep their defaults. */
function limitsFromEnv(env: Env): Partial<JobLimits> {
  const hours = positive(env, "RETENTION_HOURS");
  const storedMb = positive(env, "QUOTA_STORED_MB");
  return {
    retentionMs: hours === undefined ? undefined : hours * 60 * 60 * 1000,
    maxUnfinishedPerSubject: positive(env, "QUOTA_UNFINISHED_JOBS"),
    maxStartsPerHour: positive(env, "QUOTA_JOBS_PER_HOUR"),
    maxStoredBytesPerSubject: storedMb === undefined ? undefined : storedMb * 1024 * 1024,
  };
}

/** The database under `dataDir`; when it cannot be opened, an error whose message says why and what to do. */
function openSqlite(dataDir: string): JobStore {
  const file = resolve(dataDir, "giftgenius.db");
  try {
    mkdirSync(dataDir, { recursive: true });
    return createSqliteStore(file);
  } catch (error) {
    const problem = storageProblem(error);
    if (problem === undefined) throw error;
    throw new Error(
      `Cannot open the job database ${file}: ${problem}. Set DATA_DIR to a directory this user can write, ` +
        `or use STORE=memory to keep jobs in memory only.`,
    );
  }
}

/**
 * Sessions that several instances share: records in the Redis at `url` under `keyPrefix` (on a
 * connection of their own, opened by the app, whose loss and return go to `onConnectionChange`),
 * notification streams read from the job `store`.
 */
export function sharedSessionsOn(
  store: JobStore,
  url: string,
  keyPrefix: string,
  onConnectionChange?: ConnectionListener,
): SharedSessions {
  const records = (ttlMs: number) =>
    createSessionRecords(watchConnection(openRedis(url), onConnectionChange), keyPrefix, ttlMs);
  return { records, store };
}

const redisEnv = (env: Env) => ({
  url: env.REDIS_URL ?? "redis://127.0.0.1:6379",
  keyPrefix: env.REDIS_PREFIX ?? "giftgenius:",
});

/** The job service the environment describes. */
export function jobsFromEnv(env: Env): JobService {
  return serverFromEnv(env).jobs;
}

/** The job service the environment describes and, on Redis, the sessions that share its store. */
export function serverFromEnv(env: Env): { jobs: JobService; sharedSessions?: SharedSessions; files: FilesSetup } {
  // a lost Redis is told by its outage log, once: its faults need no line each, nor a stack
  const onError = (error: unknown, context: string) =>
    void (isConnectionFault(error) || console.error(`jobs: ${context}:`, error));
  const limits = limitsFromEnv(env);
  switch (env.STORE ?? "sqlite") {
    case "sqlite": {
      const store = openSqlite(env.DATA_DIR ?? "./data");
      return { jobs: createJobService({ store, match: matchGifts, limits, onError }), files: filesFromEnv(env, store) };
    }
    case "memory": {
      const store = createMemoryStore();
      return { jobs: createJobService({ store, match: matchGifts, limits, onError }), files: filesFromEnv(env, store) };
    }
    case "redis": {
      const { url, keyPrefix } = redisEnv(env);
      // one line when Redis is lost (for which connection, and why), one when it is back, a reminder a minute
      const outage = createOutageLog({
        dependency: `Redis at ${redisHost(url)}`,
        print: (line) => console.error(`jobs: ${line}`),
      });
      const store = createRedisStore({ url, keyPrefix, onConnectionChange: outage.part("the job store and queue") });
      const executor = createBullmqExecutor({
        url,
        connection: store.connection,
        onWorkerConnectionChange: outage.part("the job worker"),
        prefix: `${keyPrefix}queue`,
        concurrency: count(env, "WORKERS"),
        lockMs: count(env, "JOB_LOCK_MS"),
        stalledCheckMs: count(env, "JOB_STALLED_CHECK_MS"),
        graceMs: count(env, "JOB_GRACE_MS"),
      });
      // the service owns and closes the store; the sessions read it while the app runs
      return {
        jobs: createJobService({ store, match: matchGifts, limits, onError, executor }),
        sharedSessions: sharedSessionsOn(store, url, keyPrefix, outage.part("the session records")),
        files: filesFromEnv(env, store),
      };
    }
    default:
      throw new Error(`STORE=${env.STORE} is not a store: use sqlite (the default), memory or redis.`);
  }
}
