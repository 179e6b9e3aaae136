/**
 * Uploads in Redis, under the app's key prefix, for instances that share one Redis: each chunk a
 * field of the upload's chunk hash; every write one Lua script (redis-scripts.ts); every key also
 * expires a while after the upload's last activity, in case no sweep comes.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { openRedis, watchConnection, type RedisConnection } from "../../redis/connection.js";
import { run, type Script } from "../../redis/scripts.js";
import { BEGIN, DROP, HELD, PUT, SWEEP, TOUCH, VERIFIED } from "./redis-scripts.js";
import {
  UploadQuotaError,
  checkChunk,
  checkComplete,
  corruption,
  chunkCountOf,
  newUploadId,
  RESERVE_AHEAD_CHUNKS,
  resolveUploadOptions,
  type Upload,
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

/** An upload with its fields as stored, the version its chunks are at included. */
type Loaded = Upload & { version: string };

class RedisUploadStore implements UploadStore {
  constructor(
    private readonly connection: RedisConnection,
    /** Every key's prefix: `<REDIS_PREFIX>upload:`. */
    private readonly p: string,
    private readonly options: Required<UploadStoreOptions>,
  ) {}

  readonly begin: UploadStore["begin"] = async (owner, { name, size, sha256 }, maxBytes) => {
    const { chunkBytes } = this.options;
    const keys = [this.#fileKey(owner, name, size, sha256), `${this.p}owner:${owner}`];
    const file = [owner, name, size, sha256, chunkBytes, chunkCountOf(size, chunkBytes)];
    const reply = await this.#write(BEGIN, keys, ...file, maxBytes ?? "", newUploadId());
    const upload = await this.get(owner, reply[1]);
    if (upload === undefined) throw new Error(`upload ${reply[1]} vanished as it began`);
    return upload;
  };

  readonly get: UploadStore["get"] = async (owner, uploadId) => {
    const loaded = await this.#load(owner, uploadId);
    if (loaded === undefined) return undefined;
    const { version: _, ...upload } = loaded;
    return upload;
  };

  readonly put: UploadStore["put"] = async (owner, uploadId, index, bytes, maxBytes) => {
    const upload = await this.get(owner, uploadId);
    if (upload === undefined) return undefined;
    checkChunk(upload, index, bytes.length); // on fields an upload never changes
    const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const reply = await this.#write(PUT, [], uploadId, owner, index, chunk, maxBytes ?? "");
    return reply[0] === "ok" ? this.get(owner, uploadId) : undefined;
  };

  readonly read: UploadStore["read"] = async (owner, uploadId) => {
    const upload = await this.#load(owner, uploadId);
    if (upload === undefined || !(await this.touch(owner, uploadId))) return undefined;
    checkComplete(upload.chunks, upload.received);
    const indices = Array.from({ length: upload.chunks }, (_, i) => String(i));
    const chunks = await this.#guard((redis) => redis.hmgetBuffer(`${this.p}${uploadId}:chunks`, ...indices));
    // dropped between the two reads
    if (chunks.some((c) => c === null)) return undefined;
    const bytes = Buffer.concat(chunks as Buffer[]);
    if (!upload.verified) {
      const corrupt = corruption(upload, bytes);
      if (corrupt) {
        await this.drop(owner, uploadId);
        throw corrupt;
      }
      await this.#run(VERIFIED, [], uploadId, upload.version);
    }
    return bytes;
  };

  readonly touch: UploadStore["touch"] = async (owner, uploadId) => (await this.#run(TOUCH, [], uploadId, owner)) === 1;

  readonly drop: UploadStore["drop"] = async (owner, uploadId) => (await this.#run(DROP, [], uploadId, owner)) === 1;

  readonly bytesOf: UploadStore["bytesOf"] = async (owner) => Number(await this.#run(HELD, [], owner));

  readonly sweep: UploadStore["sweep"] = async () => {
    let swept = 0;
    for (;;) {
      const n = Number(await this.#run(SWEEP, [], SWEEP_BATCH));
      swept += n;
      if (n < SWEEP_BATCH) return swept;
    }
  };

  readonly close: UploadStore["close"] = async () => {
    this.connection.redis.disconnect();
  };

  async #load(owner: string, uploadId: string): Promise<Loaded | undefined> {
    const [fields, received] = await this.#guard((redis) =>
      Promise.all([redis.hgetall(this.p + uploadId), redis.hkeys(`${this.p}${uploadId}:chunks`)]),
    );
    if (fields.owner !== owner || !(Number(fields.kept) > this.options.now())) return undefined;
    return {
      uploadId,
      owner,
      name: fields.name,
      size: Number(fields.size),
      sha256: fields.sha256,
      chunkBytes: Number(fields.chunkBytes),
      chunks: Number(fields.chunks),
      received: received.map(Number).sort((a, b) => a - b),
      receivedBytes: Number(fields.received),
      verified: fields.verified === "1",
      keptUntil: Number(fields.kept),
      version: fields.version,
    };
  }

  #fileKey(owner: string, name: string, size: number, sha256: string): string {
    const hash = createHash("sha256").update(JSON.stringify([owner, name, size, sha256]));
    return `${this.p}file:${hash.digest("base64url")}`;
  }

  #guard<T>(call: (redis: Redis) => Promise<T>): Promise<T> {
    return this.connection.guard(() => call(this.connection.redis));
  }

  /** Runs `lua` with the arguments every script begins with (redis-scripts.ts), then `args`. */
  #run(lua: Script, keys: string[], ...args: (string | number | Buffer)[]): Promise<unknown> {
    const { now, stalledAfterMs, abandonedAfterMs } = this.options;
    const ttl = Math.max(abandonedAfterMs, stalledAfterMs) + EXPIRY_MARGIN_MS;
    const common = [this.p, now(), ttl, RESERVE_AHEAD_CHUNKS, stalledAfterMs, abandonedAfterMs];
    return this.#guard((redis) => run(redis, lua, keys, [...common, ...args]));
  }

  /** A write that may find no room: its reply, or an `UploadQuotaError`. */
  async #write(lua: Script, keys: string[], ...args: (string | number | Buffer)[]): Promise<string[]> {
    const reply = (await this.#run(lua, keys, ...args)) as string[];
    if (reply[0] === "quota") throw new UploadQuotaError(Number(reply[1]), Number(reply[2]));
    return reply;
  }
}

export function createRedisUploadStore(options: RedisUploadStoreOptions): UploadStore {
  const connection = watchConnection(openRedis(options.url));
  return new RedisUploadStore(connection, `${options.keyPrefix}upload:`, resolveUploadOptions(options));
}
