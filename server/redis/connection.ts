/**
 * Redis connections that fail fast: a Redis down or stalled answers `StoreUnavailableError` within
 * 2 s, not tens of seconds (subscribing and blocking ones get no deadline). A loss and a return are
 * each told once; errors leave without the command's arguments, which may hold employee data.
 */
import { Redis } from "ioredis";
import type { OutagePart } from "../observability/outage-log.js";
import { codeOf, StoreUnavailableError } from "../store-errors.js";

export type ConnectionListener = (up: boolean, error?: unknown) => void;

export type RedisConnection = ReturnType<typeof watchConnection>;

/** How long a call waits for a connection that is not up. */
const WAIT_MS = 1000;
/** The most a guarded call takes, the wait included. */
const CALL_DEADLINE_MS = 1900;
/** How long one command may go unanswered on a command connection (BullMQ's own calls too). */
const COMMAND_TIMEOUT_MS = 1500;
/** Reconnect at once, then every second at most. */
const RECONNECT = { connectTimeout: 2000, retryStrategy: (times: number) => Math.min(times * 100, 1000) };

export function openRedis(url: string): Redis {
  return new Redis(url, {
    // without a connection a command fails at once instead of waiting in a queue
    enableOfflineQueue: false,
    // commands in flight when the connection drops fail then, rather than being sent again later
    maxRetriesPerRequest: 0,
    // a Redis that is connected but does not answer (paused, swapping, stuck in a script)
    commandTimeout: COMMAND_TIMEOUT_MS,
    ...RECONNECT,
  });
}

/** BullMQ's worker connection: no deadline (a blocking read must outlive one; BullMQ bounds its waits). */
export function openWorkerRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, ...RECONNECT });
}

/** Watches `redis` and guards calls on it: lost when it drops, fails or does not answer in time. */
export function watchConnection(redis: Redis, onChange: ConnectionListener = () => {}) {
  let up: boolean | undefined = redis.status === "ready" ? true : undefined;
  let lastError: unknown;
  /** A loss is told once, and a return only after a loss. */
  const become = (now: boolean, error?: unknown) => {
    const told = (up === false) === now;
    up = now;
    try {
      if (told) onChange(now, error);
    } catch {
      // a failing listener must not break the connection's own handling
    }
  };
  // with a listener, ioredis no longer prints every failed reconnection itself
  redis.on("error", (error: unknown) => {
    lastError = error;
    become(false, error);
  });
  // a drop, and not a close asked for: ioredis is about to try again
  redis.on("reconnecting", () => become(false, lastError));
  redis.on("ready", () => {
    lastError = undefined;
    become(true);
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
    /** Runs `call` once up; what fails for want of a connection is `StoreUnavailableError`. */
    async guard<T>(call: () => Promise<T>): Promise<T> {
      const started = performance.now();
      await ready();
      const pending = (async () => call())();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        const left = Math.max(0, CALL_DEADLINE_MS - (performance.now() - started));
        timer = setTimeout(() => reject(new Error(NO_ANSWER)), left);
      });
      try {
        const value = await Promise.race([pending, late]);
        if (redis.status === "ready") become(true); // a stalled Redis answers again
        return value;
      } catch (error) {
        forgetArguments(error);
        if (noAnswer(error)) {
          pending.catch(() => {}); // answered (or failed) after the deadline: nobody waits for it now
          become(false, error);
          throw unavailable(error);
        }
        // a reply error (a script's refusal, a bad command) comes over a live connection
        if (redis.status !== "ready" || lostConnection(error)) throw unavailable(error);
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

const NO_ANSWER = `Redis did not answer within ${CALL_DEADLINE_MS} ms.`;
/** A call's deadline, or ioredis's command timeout. */
const noAnswer = (error: unknown): boolean =>
  error instanceof Error && (error.message === NO_ANSWER || error.message === "Command timed out");

/** ioredis puts the failed command on its errors, arguments (people) and all: keep its name only. */
function forgetArguments(error: unknown): void {
  if (typeof error !== "object" || error === null || !("command" in error)) return;
  const { command } = error;
  const name = typeof command === "object" && command !== null && "name" in command ? command.name : undefined;
  error.command = { name };
}

/** ioredis's errors for a command that never got an answer because the connection went. */
function lostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "MaxRetriesPerRequestError" || error.name === "AbortError") return true;
  // the socket closed a moment before ioredis noticed: its status still says ready
  return error.message.startsWith("Stream isn't writeable") || error.message === "Connection is closed.";
}

const NETWORK_CODES = new Set([
  ...["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EPIPE"],
  ...["ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"],
]);

/** An expected fault of a Redis connection, which its watch tells as a loss, rather than a defect worth a stack. */
export function isConnectionFault(error: unknown): boolean {
  if (error instanceof StoreUnavailableError || lostConnection(error) || noAnswer(error)) return true;
  if (error instanceof AggregateError) return error.errors.length > 0 && error.errors.every(isConnectionFault);
  return error instanceof Error && (NETWORK_CODES.has(codeOf(error) ?? "") || error.name === "ConnectionClosedError");
}

function describeFault(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0 && !error.message)
    return describeFault(error.errors[0]);
  if (!(error instanceof Error)) return "the connection closed";
  if (error.message === "Command timed out") return `no answer within ${COMMAND_TIMEOUT_MS} ms`;
  return error.message || (codeOf(error) ?? error.name);
}

export function outageListener(part: OutagePart): ConnectionListener {
  return (up, error) => (up ? part.back() : part.lost(describeFault(error)));
}

/** Where `url` points, host and port only: the URL may carry a password. */
export function redisHost(url: string): string {
  const parsed = URL.parse(url);
  return parsed ? parsed.host || url : "(an unreadable REDIS_URL)";
}

/** Waits for the replies in flight only when connected. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === "ready") await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}

/**
 * Hears `channel` on a connection of its own, which subscribes again after each drop. A message sent
 * while it was down is missed; its listeners have a slower way to catch up.
 */
export function subscribe(redis: Redis, channel: string, onMessage: (text: string) => void): Redis {
  // no command timeout (it would cut the subscription off); a subscribe waits through every retry
  const sub = redis.duplicate({ enableOfflineQueue: true, commandTimeout: undefined, maxRetriesPerRequest: null });
  sub.on("message", (from: string, text: string) => {
    if (from === channel) onMessage(text);
  });
  sub.on("error", () => {}); // ioredis reconnects by itself
  void sub.subscribe(channel).catch(() => {});
  return sub;
}
