/**
 * The Redis store's connection, made to fail fast: while Redis is down a call waits a second for it
 * to come back, then fails with `StoreUnavailableError` (ioredis would otherwise queue commands and
 * keep trying for tens of seconds). A drop and a return are each told once, not at every retry.
 */
import { Redis } from "ioredis";
import { StoreUnavailableError } from "../store.js";

/** Told when the connection is lost (with why, when known) and when it is back. */
export type ConnectionListener = (up: boolean, error?: unknown) => void;

export type RedisConnection = {
  redis: Redis;
  /** Runs `call` once the connection is up; what fails for want of a connection is `StoreUnavailableError`. */
  guard<T>(call: () => Promise<T>): Promise<T>;
};

/** How long a call waits for a connection that is not up, in ms. */
const WAIT_MS = 1000;

/** A new fail-fast connection to `url`. */
export function openRedis(url: string): Redis {
  return new Redis(url, {
    // without a connection a command fails at once instead of waiting in a queue
    enableOfflineQueue: false,
    // commands in flight when the connection drops fail then, rather than being sent again later
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    // reconnect soon, then every 2 s at most, for as long as it takes
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
}

/** Watches `redis` (which may queue offline or not) and guards calls on it. */
export function watchConnection(redis: Redis, onChange: ConnectionListener = () => {}): RedisConnection {
  let up: boolean | undefined = redis.status === "ready" ? true : undefined;
  let lastError: unknown;
  const tell = (now: boolean, error?: unknown) => {
    try {
      onChange(now, error);
    } catch {
      // a failing listener must not break the connection's own handling
    }
  };
  // with a listener, ioredis no longer prints every failed reconnection itself
  redis.on("error", (error: unknown) => {
    lastError = error;
    if (up !== false) {
      up = false;
      tell(false, error);
    }
  });
  redis.on("close", () => {
    if (up === true) {
      up = false;
      tell(false, lastError);
    }
  });
  redis.on("ready", () => {
    if (up === false) tell(true);
    up = true;
    lastError = undefined;
  });

  const unavailable = (cause?: unknown) =>
    new StoreUnavailableError("The Redis job store is unreachable.", cause === undefined ? undefined : { cause });
  function ready(): Promise<void> {
    if (redis.status === "ready") return Promise.resolve();
    if (redis.status === "end") return Promise.reject(unavailable(lastError));
    return new Promise((resolve, reject) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        redis.off("ready", onReady);
        reject(unavailable(lastError));
      }, WAIT_MS);
      redis.once("ready", onReady);
    });
  }

  return {
    redis,
    async guard(call) {
      await ready();
      try {
        return await call();
      } catch (error) {
        // a reply error (a script's refusal, a bad command) comes over a live connection
        if (redis.status !== "ready" || (error instanceof Error && error.name === "MaxRetriesPerRequestError")) {
          throw unavailable(error);
        }
        throw error;
      }
    },
  };
}
