/**
 * The real Redis the Redis tests run against (REDIS_URL, default 127.0.0.1:6379): whether it
 * answers, with CI failing the run instead of skipping when it does not, and the deletion of every
 * key under a test run's prefix.
 */
import { Redis } from "ioredis";

export const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const ci = process.env.CI !== undefined && !["", "0", "false"].includes(process.env.CI);

/**
 * Undefined when Redis answers PING, else why not. In CI an unreachable Redis throws: those tests
 * are required there, and a skip would hide them.
 */
export async function redisUnreachable(what: string): Promise<string | undefined> {
  const unreachable = await reach(redisUrl);
  if (unreachable === undefined) return undefined;
  if (ci) throw new Error(`Redis at ${redisUrl} is unreachable (${unreachable}); CI needs it for ${what}.`);
  console.warn(`Skipping ${what}: Redis at ${redisUrl} is unreachable (${unreachable}).`);
  return unreachable;
}

/** Every key under `prefix`, through `admin`. */
export async function keysUnder(admin: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await admin.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== "0");
  return keys;
}

/** Deletes every key under `prefix`. */
export async function deleteKeysUnder(admin: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(admin, prefix);
  for (let i = 0; i < keys.length; i += 500) await admin.unlink(...keys.slice(i, i + 500));
}

async function reach(url: string): Promise<string | undefined> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let cause: string | undefined; // the socket's error says more than the rejected connect
  probe.on("error", (error: Error) => (cause ??= error.message));
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG" ? undefined : "it did not answer PING";
  } catch (error) {
    return cause ?? (error as Error).message;
  } finally {
    probe.disconnect();
  }
}
