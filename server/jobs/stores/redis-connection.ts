/**
 * The Redis store's connection, made to fail fast: while Redis is down a call waits a second for it
 * to come back, then fails with `StoreUnavailableError` (ioredis would otherwise queue commands and
 * keep trying for tens of seconds). A drop and a return are each told once, not at every retry.
 * Errors leave without the command's arguments, which may hold employee data.
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
        forgetArguments(error);
        // a reply error (a script's refusal, a bad command) comes over a live connection
        if (redis.status !== "ready" || lostConnection(error)) {
          throw unavailable(error);
        }
        throw error;
      }
    },
  };
}

/**
 * ioredis puts the failed command on its errors, arguments and all: a job's input or a chunk of
 * people. The name is enough to know what failed, and nothing of a job may reach the logs.
 */
function forgetArguments(error: unknown): void {
  if (typeof error !== "object" || error === null || !("command" in error)) return;
  const { command } = error as { command: unknown };
  const name = typeof command === "object" && command !== null && "name" in command ? command.name : undefined;
  (error as { command: unknown }).command = { name };
}

/** ioredis's errors for a command that never got an answer because the connection went. */
function lostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "MaxRetriesPerRequestError" || error.name === "AbortError") return true;
  // the socket closed a moment before ioredis noticed: its status still says ready
  return error.message.startsWith("Stream isn't writeable") || error.message === "Connection is closed.";
}

/**
 * Hears `channel` on a connection of its own (one that subscribes can send nothing else), which
 * queues while offline: it subscribes before it is connected, and again after each drop. A message
 * sent while it was down is missed; its listeners have a slower way to catch up.
 */
export function subscribe(redis: Redis, channel: string, onMessage: (text: string) => void): Redis {
  const sub = redis.duplicate({ enableOfflineQueue: true });
  sub.on("message", (from: string, text: string) => {
    if (from === channel) onMessage(text);
  });
  sub.on("error", () => {}); // ioredis reconnects by itself
  void sub.subscribe(channel).catch(() => {});
  return sub;
}
