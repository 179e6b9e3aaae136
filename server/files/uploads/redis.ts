/**
 * Uploads in Redis, under the app's key prefix, for instances that share one Redis: each chunk a
 * field of the upload's chunk hash. A step reads the owner's uploads in one script and makes its
 * changes in another only if they are still as read, else it runs again (redis-scripts.ts); every
 * key also expires a while after the upload's last activity, in case no sweep comes.
 */
import { createHash } from "node:crypto";
import { openRedis, watchConnection, type RedisConnection } from "../../redis/connection.js";
import { run, type Script } from "../../redis/scripts.js";
import { COMMIT, LOAD, SWEEP } from "./redis-scripts.js";
import {
  createUploadStore,
  resolveUploadOptions,
  type Upload,
  type UploadChange,
  type UploadStorage,
  type UploadStore,
  type UploadStoreOptions,
} from "./upload-store.js";

export type RedisUploadStoreOptions = UploadStoreOptions & {
  /** REDIS_URL: the store opens its own connection, and closes it on `close()`. */
  url: string;
  /** The app's key prefix (REDIS_PREFIX); the store's keys are under `<prefix>upload:`. */
  keyPrefix: string;
};

/** How long past the longest an upload is kept its keys live, should no sweep come. */
const EXPIRY_MARGIN_MS = 10 * 60 * 1000;
/** Uploads one sweep drops at most; the next sweep takes the rest. */
const SWEEP_BATCH = 1000;

/** An upload as LOAD gives it: id, its hash's fields (size, received... as strings), its chunks' indices. */
type Stored = [string, string, string, string, string, string, string, string, string, string, Record<number, string>];

/** LOAD's uploads (its JSON has `{}` for an empty list: `Object.values` reads both). */
function uploadsOf(json: Buffer, owner: string): Upload[] {
  const stored = Object.values(JSON.parse(json.toString()) as Record<number, Stored>);
  return stored.map(([uploadId, name, size, sha256, chunkBytes, chunks, receivedBytes, verified, kept, , indices]) => ({
    uploadId,
    owner,
    name,
    size: Number(size),
    sha256,
    chunkBytes: Number(chunkBytes),
    chunks: Number(chunks),
    received: Object.values(indices).map(Number),
    receivedBytes: Number(receivedBytes),
    verified: verified === "1",
    keptUntil: Number(kept),
  }));
}

/** A change as COMMIT's arguments (`p`: the keys' prefix). */
function argsOf(p: string, change: UploadChange): (string | number | Buffer)[] {
  if ("remove" in change) return ["remove", change.remove];
  if ("chunk" in change) return ["chunk", change.uploadId, change.index, change.chunk];
  const { owner, name, size, sha256, chunkBytes, chunks, receivedBytes: received, keptUntil: kept } = change.save;
  const file = createHash("sha256")
    .update(JSON.stringify([owner, name, size, sha256]))
    .digest("base64url");
  const fields = { name, size, sha256, chunkBytes, chunks, received, verified: Number(change.save.verified), kept };
  return ["save", change.save.uploadId, `${p}file:${file}`, ...Object.entries(fields).flat()];
}

/** Keeps uploads on `connection` under `p` (`<REDIS_PREFIX>upload:`), each key living `ttl` past its last activity. */
function redisStorage(connection: RedisConnection, p: string, ttl: number): UploadStorage {
  /** Runs `lua` with the key prefix, then `args`; its reply in Buffers when `buffers`. */
  const call = (lua: Script, args: (string | number | Buffer)[], buffers = false): Promise<unknown> =>
    connection.guard(() => run(connection.redis, lua, [], [p, ...args], buffers));
  return {
    transact: async (owner, decide, chunksOf = "") => {
      for (;;) {
        const [read, ...chunks] = (await call(LOAD, [owner, chunksOf], true)) as Buffer[];
        const [value, ...changes] = decide(uploadsOf(read, owner), chunks);
        if (changes.length === 0) return value;
        const args = [owner, read, ttl, ...changes.flatMap((change) => argsOf(p, change))];
        if ((await call(COMMIT, args)) === 1) return value;
      }
    },
    sweep: async (now) => {
      let swept = 0;
      for (;;) {
        const n = Number(await call(SWEEP, [now, SWEEP_BATCH]));
        swept += n;
        if (n < SWEEP_BATCH) return swept;
      }
    },
    close: async () => {
      connection.redis.disconnect();
    },
  };
}

export function createRedisUploadStore(options: RedisUploadStoreOptions): UploadStore {
  const { stalledAfterMs, abandonedAfterMs } = resolveUploadOptions(options);
  const ttl = Math.max(abandonedAfterMs, stalledAfterMs) + EXPIRY_MARGIN_MS;
  const storage = redisStorage(watchConnection(openRedis(options.url)), `${options.keyPrefix}upload:`, ttl);
  return createUploadStore(storage, options);
}
