/**
 * Uploads in Redis, under the app's key prefix, for instances that share one Redis. A step reads the
 * owner's uploads in one script and makes its changes in another only if they are still as read, else
 * runs again: the scripts do key operations only, the rules are upload-store.ts's. Every key also
 * expires a while after the upload's last activity, in case no sweep comes.
 */
import { createHash } from "node:crypto";
import { openRedis, watchConnection, type RedisConnection } from "../../redis/connection.js";
import { run, script, type Script } from "../../redis/scripts.js";
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

/**
 * Keys under ARGV[1], `<p>`: per upload a hash `<p><id>` and its chunks `<p><id>:chunks`; per owner
 * `<p>owner:<owner>` (its ids); per file `<p>file:<hash>` → id; `<p>kept`, ids by when they go.
 * `owned`: the owner's uploads as `Stored` tuples, chunk indices ascending (an id whose hash expired,
 * owner and all, is forgotten). `drop`: an upload and its keys.
 */
const COMMON = `
local p = ARGV[1]
local function owned(owner)
  local ids = redis.call('HKEYS', p .. 'owner:' .. owner)
  table.sort(ids)
  local uploads = {}
  for _, id in ipairs(ids) do
    local u = redis.call('HMGET', p .. id, 'owner', 'name', 'size', 'sha256', 'chunkBytes', 'chunks', 'received',
      'verified', 'kept', 'version')
    if u[1] then
      u[1], u[11] = id, redis.call('HKEYS', p .. id .. ':chunks')
      table.sort(u[11], function(a, b) return tonumber(a) < tonumber(b) end)
      uploads[#uploads + 1] = u
    else
      redis.call('HDEL', p .. 'owner:' .. owner, id)
    end
  end
  return uploads
end
local function drop(id)
  local owner, fileKey = unpack(redis.call('HMGET', p .. id, 'owner', 'fileKey'))
  redis.call('DEL', p .. id, p .. id .. ':chunks')
  redis.call('ZREM', p .. 'kept', id)
  if owner then redis.call('HDEL', p .. 'owner:' .. owner, id) end
  if fileKey and redis.call('GET', fileKey) == id then redis.call('DEL', fileKey) end
end
`;

/** ARGV from 2: owner, an upload whose chunks to return too ("" for none). Returns {uploads as JSON, chunks...}. */
const LOAD = script(`${COMMON}
local uploads = owned(ARGV[2])
local reply = { cjson.encode(uploads) }
for _, u in ipairs(uploads) do
  if u[1] == ARGV[3] then
    for _, index in ipairs(u[11]) do reply[#reply + 1] = redis.call('HGET', p .. u[1] .. ':chunks', index) end
  end
end
return reply
`);

/**
 * ARGV from 2: owner, the uploads as LOAD read them, the keys' ttl, then the changes (`argsOf`).
 * Makes them, and returns 1, only if the owner's uploads are still as read; else 0.
 */
const COMMIT = script(`${COMMON}
local owner, ttl = ARGV[2], ARGV[4]
if cjson.encode(owned(owner)) ~= ARGV[3] then return 0 end
local i = 5
while i <= #ARGV do
  local op, id = ARGV[i], ARGV[i + 1]
  if op == 'remove' then
    drop(id)
    i = i + 2
  elseif op == 'chunk' then -- index, bytes
    redis.call('HSET', p .. id .. ':chunks', ARGV[i + 2], ARGV[i + 3])
    i = i + 4
  else -- 'save': the file's key, then eight fields and their values
    local fileKey, ownerKey = ARGV[i + 2], p .. 'owner:' .. owner
    redis.call('HSET', p .. id, 'owner', owner, 'fileKey', fileKey, unpack(ARGV, i + 3, i + 18))
    redis.call('HINCRBY', p .. id, 'version', 1)
    local size, kept = unpack(redis.call('HMGET', p .. id, 'size', 'kept'))
    redis.call('SET', fileKey, id)
    redis.call('HSET', ownerKey, id, size)
    redis.call('ZADD', p .. 'kept', kept, id)
    for _, key in ipairs({ p .. id, p .. id .. ':chunks', ownerKey, fileKey }) do redis.call('PEXPIRE', key, ttl) end
    i = i + 19
  end
end
return 1
`);

/**
 * ARGV from 2: now, most to drop. Drops the uploads kept no longer; returns how many. Also deletes
 * `<p>touched`, an earlier version's sorted set (its uploads' own keys expire by themselves).
 */
const SWEEP = script(`${COMMON}
redis.call('DEL', p .. 'touched')
local ids = redis.call('ZRANGEBYSCORE', p .. 'kept', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do drop(id) end
return #ids
`);

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
    connection.guard(() => run(connection.redis, lua, [p, ...args], buffers));
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
    close: async () => connection.redis.disconnect(),
  };
}

export function createRedisUploadStore(options: RedisUploadStoreOptions): UploadStore {
  const { stalledAfterMs, abandonedAfterMs } = resolveUploadOptions(options);
  const ttl = Math.max(abandonedAfterMs, stalledAfterMs) + EXPIRY_MARGIN_MS;
  const storage = redisStorage(watchConnection(openRedis(options.url)), `${options.keyPrefix}upload:`, ttl);
  return createUploadStore(storage, options);
}
