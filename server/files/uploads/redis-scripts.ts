/**
 * The Redis upload store's writes, each one atomic Lua script by the caller's clock (ARGV). Keys:
 * per upload a hash `<p><id>` and its chunks `<p><id>:chunks`; per owner `<p>owner:<owner>` (its
 * ids); per file `<p>file:<hash>` → id; `<p>kept`, ids by when they go. upload-store.ts's rules.
 */
import { script } from "../../redis/scripts.js";

/**
 * Every script's ARGV begins alike (redis.ts's `#run`): prefix, now, keys' ttl, chunks held ahead,
 * the lives of an unfinished and a whole upload; its own follow from ARGV[7]. `held` is `reservedBytes`.
 */
const COMMON = `
local p, now, ttl, ahead = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local stalled, abandoned = tonumber(ARGV[5]), tonumber(ARGV[6])
local function alive(id)
  local k = redis.call('HGET', p .. id, 'kept')
  return k and tonumber(k) > now
end
local function held(size, received, chunkBytes)
  return received + math.min(size - received, ahead * chunkBytes)
end
local function refresh(id, owner, kept)
  local fileKey = redis.call('HGET', p .. id, 'fileKey')
  redis.call('HSET', p .. id, 'touched', now, 'kept', kept)
  redis.call('ZADD', p .. 'kept', kept, id)
  for _, key in ipairs({ p .. id, p .. id .. ':chunks', p .. 'owner:' .. owner, fileKey }) do
    redis.call('PEXPIRE', key, ttl)
  end
end
local function use(id, owner)
  local kept, size, received = unpack(redis.call('HMGET', p .. id, 'kept', 'size', 'received'))
  kept = tonumber(kept)
  if tonumber(received) == tonumber(size) then kept = math.max(kept, now + abandoned) end
  refresh(id, owner, kept)
end
local function drop(id)
  local owner, fileKey = unpack(redis.call('HMGET', p .. id, 'owner', 'fileKey'))
  redis.call('DEL', p .. id, p .. id .. ':chunks')
  redis.call('ZREM', p .. 'kept', id)
  if owner then redis.call('HDEL', p .. 'owner:' .. owner, id) end
  if fileKey and redis.call('GET', fileKey) == id then redis.call('DEL', fileKey) end
end
local function heldBy(owner, except)
  local total = 0
  for _, id in ipairs(redis.call('HKEYS', p .. 'owner:' .. owner)) do
    if id ~= except then
      if alive(id) then
        local size, received, chunkBytes = unpack(redis.call('HMGET', p .. id, 'size', 'received', 'chunkBytes'))
        total = total + held(tonumber(size), tonumber(received), tonumber(chunkBytes))
      else
        drop(id)
        redis.call('HDEL', p .. 'owner:' .. owner, id) -- its hash may have expired already, owner and all
      end
    end
  end
  return total
end
local function owns(id, owner)
  return redis.call('HGET', p .. id, 'owner') == owner and alive(id)
end
`;

/**
 * KEYS: file key, owner hash. ARGV from 7: owner, name, size, sha256, chunkBytes, chunks, maxBytes
 * ("" for none), new id. Returns {"resumed", id}, {"new", id} or {"quota", held by the others, wanted}.
 */
export const BEGIN = script(`${COMMON}
local owner, size, chunkBytes, maxBytes, id = ARGV[7], tonumber(ARGV[9]), tonumber(ARGV[11]), ARGV[13], ARGV[14]
local known = redis.call('GET', KEYS[1])
if known then
  if alive(known) then
    use(known, owner)
    return { 'resumed', known }
  end
  drop(known)
end
local others = heldBy(owner, '')
local wanted = held(size, 0, chunkBytes)
if maxBytes ~= '' and others + wanted > tonumber(maxBytes) then
  return { 'quota', tostring(others), tostring(wanted) }
end
redis.call('HSET', p .. id, 'owner', owner, 'name', ARGV[8], 'size', size, 'sha256', ARGV[10], 'chunkBytes', chunkBytes,
  'chunks', ARGV[12], 'received', 0, 'verified', 0, 'version', 0, 'fileKey', KEYS[1])
redis.call('SET', KEYS[1], id)
redis.call('HSET', KEYS[2], id, size)
refresh(id, owner, now + stalled)
return { 'new', id }
`);

/**
 * ARGV from 7: id, owner, index, bytes, maxBytes ("" for none). Returns {"ok"}, {"gone"} for an
 * unknown upload, or {"quota", held by the others, wanted}.
 */
export const PUT = script(`${COMMON}
local id, owner, index, bytes, maxBytes = ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11]
if not owns(id, owner) then return { 'gone' } end
local size, received, chunkBytes = unpack(redis.call('HMGET', p .. id, 'size', 'received', 'chunkBytes'))
size, received, chunkBytes = tonumber(size), tonumber(received), tonumber(chunkBytes)
local before = held(size, received, chunkBytes)
if redis.call('HEXISTS', p .. id .. ':chunks', index) == 0 then received = received + #bytes end
local wanted = held(size, received, chunkBytes)
if maxBytes ~= '' and wanted > before then -- a chunk sent again takes no more room
  local others = heldBy(owner, id)
  if others + wanted > tonumber(maxBytes) then return { 'quota', tostring(others), tostring(wanted) } end
end
redis.call('HSET', p .. id .. ':chunks', index, bytes)
redis.call('HSET', p .. id, 'received', received, 'verified', 0)
redis.call('HINCRBY', p .. id, 'version', 1)
refresh(id, owner, now + (received == size and abandoned or stalled))
return { 'ok' }
`);

/** ARGV from 7: id, owner. Returns 1, or 0 for an unknown upload. */
export const TOUCH = script(`${COMMON}
if not owns(ARGV[7], ARGV[8]) then return 0 end
use(ARGV[7], ARGV[8])
return 1
`);

/** ARGV from 7: owner. What the owner's live uploads hold. */
export const HELD = script(`${COMMON}
return heldBy(ARGV[7], '')
`);

/** ARGV from 7: id, version read. Marks the upload verified unless a chunk came since that version. */
export const VERIFIED = script(`${COMMON}
if redis.call('HGET', p .. ARGV[7], 'version') == ARGV[8] then redis.call('HSET', p .. ARGV[7], 'verified', 1) end
return 1
`);

/** ARGV from 7: id, owner. Returns 1, or 0 for an unknown upload. */
export const DROP = script(`${COMMON}
if not owns(ARGV[7], ARGV[8]) then return 0 end
drop(ARGV[7])
return 1
`);

/**
 * ARGV from 7: most to drop. Drops the uploads kept no longer; returns how many. Also deletes
 * `<p>touched`, an earlier version's sorted set (its uploads' own keys expire by themselves).
 */
export const SWEEP = script(`${COMMON}
redis.call('DEL', p .. 'touched')
local ids = redis.call('ZRANGEBYSCORE', p .. 'kept', '-inf', now, 'LIMIT', 0, tonumber(ARGV[7]))
for _, id in ipairs(ids) do drop(id) end
return #ids
`);
