/**
 * The Redis upload store's writes, each one Lua script so that its checks and writes are one
 * atomic step, by the caller's clock (ARGV), never Redis's. Per upload: a hash `<p><id>` (owner,
 * name, size, sha256, chunkBytes, chunks, received (bytes), verified, touched, kept (until),
 * version, fileKey) and a hash of chunks `<p><id>:chunks`; per owner a hash `<p>owner:<owner>` of
 * its upload ids; per file a key `<p>file:<hash>` → upload id; and `<p>kept`, upload ids by when
 * they go, for the sweep. The quota and keep rules are upload-store.ts's and sqlite.ts's, again.
 */
import { script } from "../../redis/scripts.js";

/**
 * Shared by the scripts: ARGV[1] the key prefix; `held` is `reservedBytes`; `refresh` sets an
 * upload's life to `kept` and its keys' expiry to `ttl`; `use` keeps a whole upload `life` longer;
 * `heldBy` is what an owner's other live uploads hold.
 */
const COMMON = `
local p = ARGV[1]
local function alive(id, now)
  local k = redis.call('HGET', p .. id, 'kept')
  return k and tonumber(k) > now
end
local function held(size, received, chunkBytes, ahead)
  return received + math.min(size - received, ahead * chunkBytes)
end
local function refresh(id, owner, now, kept, ttl)
  local fileKey = redis.call('HGET', p .. id, 'fileKey')
  redis.call('HSET', p .. id, 'touched', now, 'kept', kept)
  redis.call('ZADD', p .. 'kept', kept, id)
  for _, key in ipairs({ p .. id, p .. id .. ':chunks', p .. 'owner:' .. owner, fileKey }) do
    redis.call('PEXPIRE', key, ttl)
  end
end
local function use(id, owner, now, ttl, life)
  local kept, size, received = unpack(redis.call('HMGET', p .. id, 'kept', 'size', 'received'))
  kept = tonumber(kept)
  if tonumber(received) == tonumber(size) then kept = math.max(kept, now + life) end
  refresh(id, owner, now, kept, ttl)
end
local function drop(id)
  local owner, fileKey = unpack(redis.call('HMGET', p .. id, 'owner', 'fileKey'))
  redis.call('DEL', p .. id, p .. id .. ':chunks')
  redis.call('ZREM', p .. 'kept', id)
  if owner then redis.call('HDEL', p .. 'owner:' .. owner, id) end
  if fileKey and redis.call('GET', fileKey) == id then redis.call('DEL', fileKey) end
end
local function heldBy(owner, except, now, ahead)
  local total = 0
  for _, id in ipairs(redis.call('HKEYS', p .. 'owner:' .. owner)) do
    if id ~= except then
      if alive(id, now) then
        local size, received, chunkBytes = unpack(redis.call('HMGET', p .. id, 'size', 'received', 'chunkBytes'))
        total = total + held(tonumber(size), tonumber(received), tonumber(chunkBytes), ahead)
      else
        drop(id)
        redis.call('HDEL', p .. 'owner:' .. owner, id) -- its hash may have expired already, owner and all
      end
    end
  end
  return total
end
`;

/**
 * KEYS: file key, owner hash. ARGV: prefix, owner, name, size, sha256, chunkBytes, chunks, now,
 * ttl, maxBytes ("" for none), new id, ahead chunks, stalled after ms, abandoned after ms.
 * Returns {"resumed", id}, {"new", id} or {"quota", held by the others, wanted}.
 */
export const BEGIN = script(`${COMMON}
local owner, size, chunkBytes = ARGV[2], tonumber(ARGV[4]), tonumber(ARGV[6])
local now, ttl, ahead = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[12])
local known = redis.call('GET', KEYS[1])
if known then
  if alive(known, now) then
    use(known, owner, now, ttl, tonumber(ARGV[14]))
    return { 'resumed', known }
  end
  drop(known)
end
local others = heldBy(owner, '', now, ahead)
local wanted = held(size, 0, chunkBytes, ahead)
if ARGV[10] ~= '' and others + wanted > tonumber(ARGV[10]) then
  return { 'quota', tostring(others), tostring(wanted) }
end
local id = ARGV[11]
redis.call('HSET', p .. id, 'owner', owner, 'name', ARGV[3], 'size', size, 'sha256', ARGV[5], 'chunkBytes', chunkBytes,
  'chunks', ARGV[7], 'received', 0, 'verified', 0, 'version', 0, 'fileKey', KEYS[1])
redis.call('SET', KEYS[1], id)
redis.call('HSET', KEYS[2], id, size)
refresh(id, owner, now, now + tonumber(ARGV[13]), ttl)
return { 'new', id }
`);

/**
 * ARGV: prefix, id, owner, now, ttl, index, bytes, maxBytes ("" for none), ahead chunks, stalled
 * after ms, abandoned after ms. Returns {"ok"}, {"gone"} for an unknown upload, or {"quota", held
 * by the others, wanted}.
 */
export const PUT = script(`${COMMON}
local id, owner, now, ahead = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[9])
if redis.call('HGET', p .. id, 'owner') ~= owner or not alive(id, now) then return { 'gone' } end
local size, received, chunkBytes = unpack(redis.call('HMGET', p .. id, 'size', 'received', 'chunkBytes'))
size, received, chunkBytes = tonumber(size), tonumber(received), tonumber(chunkBytes)
local before = held(size, received, chunkBytes, ahead)
if redis.call('HEXISTS', p .. id .. ':chunks', ARGV[6]) == 0 then received = received + #ARGV[7] end
local wanted = held(size, received, chunkBytes, ahead)
if ARGV[8] ~= '' and wanted > before then -- a chunk sent again takes no more room
  local others = heldBy(owner, id, now, ahead)
  if others + wanted > tonumber(ARGV[8]) then return { 'quota', tostring(others), tostring(wanted) } end
end
redis.call('HSET', p .. id .. ':chunks', ARGV[6], ARGV[7])
redis.call('HSET', p .. id, 'received', received, 'verified', 0)
redis.call('HINCRBY', p .. id, 'version', 1)
local life = received == size and tonumber(ARGV[11]) or tonumber(ARGV[10])
refresh(id, owner, now, now + life, tonumber(ARGV[5]))
return { 'ok' }
`);

/** ARGV: prefix, id, owner, now, ttl, abandoned after ms. Returns 1, or 0 for an unknown upload. */
export const TOUCH = script(`${COMMON}
local id, owner, now = ARGV[2], ARGV[3], tonumber(ARGV[4])
if redis.call('HGET', p .. id, 'owner') ~= owner or not alive(id, now) then return 0 end
use(id, owner, now, tonumber(ARGV[5]), tonumber(ARGV[6]))
return 1
`);

/** ARGV: prefix, owner, now, ahead chunks. What the owner's live uploads hold. */
export const HELD = script(`${COMMON}
return heldBy(ARGV[2], '', tonumber(ARGV[3]), tonumber(ARGV[4]))
`);

/** ARGV: prefix, id, version read. Marks the upload verified unless a chunk came since that version. */
export const VERIFIED = script(`${COMMON}
if redis.call('HGET', p .. ARGV[2], 'version') == ARGV[3] then redis.call('HSET', p .. ARGV[2], 'verified', 1) end
return 1
`);

/** ARGV: prefix, id, owner, now. Returns 1, or 0 for an unknown upload. */
export const DROP = script(`${COMMON}
if redis.call('HGET', p .. ARGV[2], 'owner') ~= ARGV[3] or not alive(ARGV[2], tonumber(ARGV[4])) then return 0 end
drop(ARGV[2])
return 1
`);

/**
 * ARGV: prefix, now, most to drop. Drops the uploads kept no longer; returns how many. Also deletes
 * `<p>touched`, an earlier version's sorted set (its uploads' own keys expire by themselves).
 */
export const SWEEP = script(`${COMMON}
redis.call('DEL', p .. 'touched')
local ids = redis.call('ZRANGEBYSCORE', p .. 'kept', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do drop(id) end
return #ids
`);
