/**
 * The key that signs download links: FILE_LINK_SECRET when set. Otherwise, with STORE=redis, a
 * random key the first instance writes into that Redis and every other reads (they already share
 * all a link unlocks, the results, so it exposes nothing new); with one process, its own.
 */
import { randomBytes } from "node:crypto";
import type { Config } from "../../config.js";
import { openRedis, watchConnection } from "../../redis/connection.js";
import type { FileLinkOptions } from "./file-links.js";

export function fileLinksFromConfig(config: Config): FileLinkOptions {
  const { publicUrl, fileLinkSecret } = config;
  if (fileLinkSecret) {
    const key = Buffer.from(fileLinkSecret, "utf8");
    return { publicUrl, secret: async () => key };
  }
  if (config.store !== "redis") return { publicUrl };
  // the Redis that jobs-env.ts opens for the job store
  return { publicUrl, secret: secretInRedis(config.redis.url, `${config.redis.keyPrefix}file-link-secret`) };
}

/** The key at `key` in the Redis at `url`, written first if none is; read once per process (retried on failure). */
export function secretInRedis(url: string, key: string): () => Promise<Uint8Array> {
  let found: Promise<Uint8Array> | undefined;
  return () =>
    (found ??= readOrCreate(url, key).catch((error: unknown) => {
      found = undefined;
      throw error;
    }));
}

async function readOrCreate(url: string, key: string): Promise<Uint8Array> {
  const redis = openRedis(url);
  try {
    return await watchConnection(redis).guard(async () => {
      // of instances starting at once, the first write wins and all read the winner
      await redis.set(key, randomBytes(32).toString("base64"), "NX");
      const value = await redis.get(key);
      if (value === null) throw new Error(`the download-link key ${key} vanished from Redis as it was written`);
      return Buffer.from(value, "base64");
    });
  } finally {
    redis.disconnect();
  }
}
