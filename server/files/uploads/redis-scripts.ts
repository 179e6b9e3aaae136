/**
 * The Redis upload storage's scripts: key operations only, the rules being upload-store.ts's. Keys:
 * per upload a hash `<p><id>` and its chunks `<p><id>:chunks`; per owner `<p>owner:<owner>` (its
 * ids); per file `<p>file:<hash>` → id; `<p>kept`, ids by when they go. ARGV[1] is always `<p>`.
 */
import { script } from "../../redis/scripts.js";

/**
 * `owned`: the owner's uploads as tuples (redis.ts's `Stored`), each with its chunks' indices
 * ascending; an id whose hash expired (owner and all) is forgotten. `drop`: an upload and its keys.
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
export const LOAD = script(`${COMMON}
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
 * ARGV from 2: owner, the uploads as LOAD read them, the keys' ttl, then the changes (redis.ts's
 * `argsOf`). Makes them, and returns 1, only if the owner's uploads are still as read; else 0.
 */
export const COMMIT = script(`${COMMON}
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
export const SWEEP = script(`${COMMON}
redis.call('DEL', p .. 'touched')
local ids = redis.call('ZRANGEBYSCORE', p .. 'kept', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do drop(id) end
return #ids
`);
