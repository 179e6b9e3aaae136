/**
 * The job system as the environment sets it up, for the server and the worker process alike:
 * STORE = sqlite under DATA_DIR (the default) | memory | redis at REDIS_URL (keys under
 * REDIS_PREFIX). With Redis, job work runs in BullMQ workers: WORKERS jobs at once in this
 * process (0: none, a web-only instance), JOB_LOCK_MS and JOB_STALLED_CHECK_MS for finding a
 * worker that died, JOB_GRACE_MS before an unfinished job no queue holds is ended.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { matchGifts } from "./gifts/matcher.js";
import { createBullmqExecutor } from "./jobs/executor-bullmq.js";
import { createJobService, type JobService } from "./jobs/job-service.js";
import { createMemoryStore } from "./jobs/stores/memory.js";
import { createRedisStore } from "./jobs/stores/redis.js";
import { createSqliteStore } from "./jobs/stores/sqlite.js";

type Env = Record<string, string | undefined>;

/** A whole number from the environment, or undefined when the variable is unset. */
function count(env: Env, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name}=${text} is not a whole number of 0 or more.`);
  return value;
}

/** The job service the environment describes. */
export function jobsFromEnv(env: Env): JobService {
  const onError = (error: unknown, context: string) => console.error(`jobs: ${context}:`, error);
  switch (env.STORE ?? "sqlite") {
    case "sqlite": {
      const dataDir = env.DATA_DIR ?? "./data";
      mkdirSync(dataDir, { recursive: true });
      return createJobService({ store: createSqliteStore(join(dataDir, "giftgenius.db")), match: matchGifts, onError });
    }
    case "memory":
      return createJobService({ store: createMemoryStore(), match: matchGifts, onError });
    case "redis": {
      const url = env.REDIS_URL ?? "redis://127.0.0.1:6379";
      const keyPrefix = env.REDIS_PREFIX ?? "giftgenius:";
      const executor = createBullmqExecutor({
        url,
        prefix: `${keyPrefix}queue`,
        concurrency: count(env, "WORKERS"),
        lockMs: count(env, "JOB_LOCK_MS"),
        stalledCheckMs: count(env, "JOB_STALLED_CHECK_MS"),
        graceMs: count(env, "JOB_GRACE_MS"),
      });
      return createJobService({ store: createRedisStore({ url, keyPrefix }), match: matchGifts, onError, executor });
    }
    default:
      throw new Error(`STORE=${env.STORE} is not a store: use sqlite (the default), memory or redis.`);
  }
}
