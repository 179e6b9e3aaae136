/**
 * The Redis upload store against a real Redis (REDIS_URL, default 127.0.0.1:6379) and the upload
 * store contract, each store under its own key prefix within this run's; every key of the run is
 * deleted at the end. Also: every key an upload makes carries an expiry, and none is left once it
 * is dropped.
 */
import { createHash, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { deleteKeysUnder, keysUnder, redisUnreachable, redisUrl } from "../../../test-kit/redis.js";
import { describeUploadStore, type UploadChunksKept } from "../../../test-kit/upload-store-suite.js";
import { createRedisUploadStore } from "./redis.js";
import type { UploadStore } from "./upload-store.js";

const unreachable = await redisUnreachable("the Redis upload store tests");
const runPrefix = `giftgenius-test:${randomUUID()}:`;
let prefixes = 0;
const nextPrefix = () => `${runPrefix}${++prefixes}:`;

describe.runIf(unreachable === undefined)("the redis upload store", () => {
  const admin = unreachable === undefined ? new Redis(redisUrl) : undefined;
  afterAll(async () => {
    await deleteKeysUnder(admin!, runPrefix);
    await admin!.quit();
  });
  const prefixOf = new WeakMap<UploadStore, string>();
  const chunksKept: UploadChunksKept = async (store, uploadId) =>
    admin!.hlen(`${prefixOf.get(store)}upload:${uploadId}:chunks`);
  describeUploadStore(
    "redis",
    (options) => {
      const keyPrefix = nextPrefix();
      const store = createRedisUploadStore({ ...options, url: redisUrl, keyPrefix });
      prefixOf.set(store, keyPrefix);
      return store;
    },
    chunksKept,
  );

  it("gives every key of an upload an expiry, and leaves none once it is dropped", async () => {
    const keyPrefix = nextPrefix();
    const store = createRedisUploadStore({ url: redisUrl, keyPrefix, chunkBytes: 4 });
    try {
      const bytes = Buffer.from("abcdefgh");
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const { uploadId } = await store.begin("alice", { name: "a.csv", size: 8, sha256 });
      await store.put("alice", uploadId, 0, bytes.subarray(0, 4));
      const keys = (await keysUnder(admin!, keyPrefix)).filter((k) => !k.endsWith("upload:kept"));
      expect(keys.length).toBe(4); // the upload, its chunks, its owner's and its file's keys
      for (const key of keys) expect(await admin!.pttl(key)).toBeGreaterThan(60 * 60 * 1000);
      expect(await store.drop("alice", uploadId)).toBe(true);
      expect(await keysUnder(admin!, keyPrefix)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
