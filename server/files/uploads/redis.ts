/**
 * Uploads in Redis, under the app's key prefix, for instances that share one Redis: each chunk is
 * a field of the upload's chunk hash, written as it arrives; every write is one Lua script
 * (redis-scripts.ts) deciding by the caller's clock, and every key also expires a while after the
 * upload's last activity in case no sweep comes. A whole read joins the chunks in index order.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { openRedis, watchConnection } from "../../redis/connection.js";
import { run } from "../../redis/scripts.js";
import { BEGIN, DROP, PUT, SWEEP, TOUCH, VERIFIED } from "./redis-scripts.js";
import {
  MissingChunksError,
  UploadQuotaError,
  checkChunk,
  checkWhole,
  chunkCountOf,
  missingChunks,
  newUploadId,
  resolveUploadOptions,
  type Upload,
  type UploadStore,
  type UploadStoreOptions,
} from "./upload-store.js";

export type RedisUploadStoreOptions = UploadStoreOptions & {
  /** Where to connect when no `client` is given; default redis://127.0.0.1:6379. */
  url?: string;
  /** A connection to use instead of opening one; left open on `close()`. */
  client?: Redis;
  /** The app's key prefix (REDIS_PREFIX); the store's keys are under `<prefix>upload:`. */
  keyPrefix?: string;
};

/** How long past the abandonment time Redis keeps an upload's keys should no sweep come. */
const EXPIRY_MARGIN_MS = 10 * 60 * 1000;
/** Uploads one sweep drops at most; the next sweep takes the rest. */
const SWEEP_BATCH = 1000;

export function createRedisUploadStore(options: RedisUploadStoreOptions = {}): UploadStore {
  const { now, abandonedAfterMs, chunkBytes } = resolveUploadOptions(options);
  const { url = "redis://127.0.0.1:6379", client, keyPrefix = "giftgenius:" } = options;
  const { redis, guard } = watchConnection(client ?? openRedis(url));
  const p = `${keyPrefix}upload:`;
  const ttl = abandonedAfterMs + EXPIRY_MARGIN_MS;
  const cutoff = () => now() - abandonedAfterMs;
  const fileKey = (owner: string, name: string, size: number, sha256: string) =>
    `${p}file:${createHash("sha256")
      .update(JSON.stringify([owner, name, size, sha256]))
      .digest("base64url")}`;
  const exec = (lua: Parameters<typeof run>[1], keys: string[], args: (string | number | Buffer)[]) =>
    guard(() => run(redis, lua, keys, args as (string | number)[]));

  /** The owner's live upload with its fields as stored (version included), or undefined. */
  async function load(owner: string, uploadId: string): Promise<(Upload & { version: string }) | undefined> {
    const [fields, received] = await guard(() =>
      Promise.all([redis.hgetall(p + uploadId), redis.hkeys(`${p}${uploadId}:chunks`)]),
    );
    if (fields.owner !== owner || !(Number(fields.touched) > cutoff())) return undefined;
    return {
      uploadId,
      owner,
      name: fields.name,
      size: Number(fields.size),
      sha256: fields.sha256,
      chunkBytes: Number(fields.chunkBytes),
      chunks: Number(fields.chunks),
      received: received.map(Number).sort((a, b) => a - b),
      verified: fields.verified === "1",
      touchedAt: Number(fields.touched),
      version: fields.version,
    };
  }
  const get = async (owner: string, uploadId: string): Promise<Upload | undefined> => {
    const loaded = await load(owner, uploadId);
    if (loaded === undefined) return undefined;
    const { version: _, ...upload } = loaded;
    return upload;
  };
  const touch = async (owner: string, uploadId: string) =>
    (await exec(TOUCH, [], [p, uploadId, owner, now(), cutoff(), ttl])) === 1;
  const drop = async (owner: string, uploadId: string) => (await exec(DROP, [], [p, uploadId, owner, cutoff()])) === 1;

  return {
    async begin(owner, { name, size, sha256 }, maxBytes) {
      const reply = (await exec(
        BEGIN,
        [fileKey(owner, name, size, sha256), `${p}owner:${owner}`],
        [
          p,
          owner,
          name,
          size,
          sha256,
          chunkBytes,
          chunkCountOf(size, chunkBytes),
          now(),
          cutoff(),
          ttl,
          maxBytes === undefined ? "" : maxBytes,
          newUploadId(),
        ],
      )) as [string, string];
      if (reply[0] === "quota") throw new UploadQuotaError(Number(reply[1]));
      const upload = await get(owner, reply[1]);
      if (upload === undefined) throw new Error(`upload ${reply[1]} vanished as it began`);
      return upload;
    },
    get,
    async put(owner, uploadId, index, bytes) {
      const upload = await get(owner, uploadId);
      if (upload === undefined) return undefined;
      checkChunk(upload, index, bytes.length); // on fields an upload never changes
      const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const stored = await exec(PUT, [], [p, uploadId, owner, now(), cutoff(), ttl, index, chunk]);
      return stored === 1 ? get(owner, uploadId) : undefined;
    },
    async read(owner, uploadId) {
      const upload = await load(owner, uploadId);
      if (upload === undefined || !(await touch(owner, uploadId))) return undefined;
      const missing = missingChunks(upload.chunks, upload.received);
      if (missing.length > 0) throw new MissingChunksError(missing);
      const indices = Array.from({ length: upload.chunks }, (_, i) => i);
      const chunks = await guard(() => redis.hmgetBuffer(`${p}${uploadId}:chunks`, ...indices.map(String)));
      // dropped between the two reads
      if (chunks.some((c) => c === null)) return undefined;
      const bytes = Buffer.concat(chunks as Buffer[]);
      if (!upload.verified) {
        try {
          checkWhole(upload, bytes);
        } catch (error) {
          await drop(owner, uploadId);
          throw error;
        }
        await exec(VERIFIED, [], [p, uploadId, upload.version]);
      }
      return bytes;
    },
    touch,
    drop,
    async bytesOf(owner) {
      const sizes = await guard(() => redis.hgetall(`${p}owner:${owner}`));
      const ids = Object.keys(sizes);
      if (ids.length === 0) return 0;
      const touched = await guard(() => Promise.all(ids.map((id) => redis.hget(p + id, "touched"))));
      return ids.reduce((sum, id, i) => (Number(touched[i]) > cutoff() ? sum + Number(sizes[id]) : sum), 0);
    },
    async sweep() {
      let swept = 0;
      for (;;) {
        const n = Number(await exec(SWEEP, [], [p, cutoff(), SWEEP_BATCH]));
        swept += n;
        if (n < SWEEP_BATCH) return swept;
      }
    },
    async close() {
      if (client === undefined) redis.disconnect();
    },
  };
}
