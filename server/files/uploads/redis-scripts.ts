/**
 * The Redis upload store's writes, each one Lua script so that its checks and writes are one
 * atomic step: beginning (with the owner's quota), storing a chunk, touching, marking verified,
 * dropping, and sweeping the abandoned. Times come from the caller's clock (ARGV), never Redis's.
 * Per upload: a hash `<p><id>` (owner, name, size, sha256, chunkBytes, chunks, verified, touched,
 * version, fileKey) and a hash of chunks `<p><id>:chunks`; per owner a hash `<p>owner:<owner>` of
 * upload id → size; per file a key `<p>file:<hash>` → upload id; and `<p>touched`, a sorted set of
 * upload ids by last activity, for the sweep. Every key also expires a while after the last
 * activity, should no sweep ever come.
 */
import { script } from "../../redis/scripts.js";

/** Shared by the scripts: ARGV[1] the key prefix; `alive`, `refresh` and `drop` on one upload. */
const COMMON = `
local p = ARGV[1]
local function alive(id, cutoff)
  local t = redis.call('HGET', p .. id, 'touched')
  return t and tonumber(t) > cutoff
end
local function refresh(id, owner, now, ttl)
  local fileKey = redis.call('HGET', p .. id, 'fileKey')
  redis.call('ZADD', p .. 'touched', now, id)
  for _, key in ipairs({ p .. id, p .. id .. ':chunks', p .. 'owner:' .. owner, fileKey }) do
    redis.call('PEXPIRE', key, ttl)
  end
end
local function drop(id)
  local owner, fileKey = unpack(redis.call('HMGET', p .. id, 'owner', 'fileKey'))
  redis.call('DEL', p .. id, p .. id .. ':chunks')
  redis.call('ZREM', p .. 'touched', id)
  if owner then redis.call('HDEL', p .. 'owner:' .. owner, id) end
  if fileKey and redis.call('GET', fileKey) == id then redis.call('DEL', fileKey) end
end
`;

/**
 * KEYS: file key, owner hash. ARGV: prefix, owner, name, size, sha256, chunkBytes, chunks, now,
 * cutoff, ttl, maxBytes ("" for none), new id. Returns {"resumed", id}, {"new", id} or {"quota", kept}.
 */
export const BEGIN = script(`${COMMON}
local owner, size, now, cutoff, ttl = ARGV[2], tonumber(ARGV[4]), tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local known = redis.call('GET', KEYS[1])
if known then
  if alive(known, cutoff) then
    redis.call('HSET', p .. known, 'touched', now)
    refresh(known, owner, now, ttl)
    return { 'resumed', known }
  end
  drop(known)
end
local kept = 0
local entries = redis.call('HGETALL', KEYS[2])
for i = 1, #entries, 2 do
  if alive(entries[i], cutoff) then
    kept = kept + tonumber(entries[i + 1])
  else
    drop(entries[i])
    redis.call('HDEL', KEYS[2], entries[i]) -- its hash may have expired already, owner and all
  end
end
if ARGV[11] ~= '' and kept + size > tonumber(ARGV[11]) then return { 'quota', tostring(kept) } end
local id = ARGV[12]
redis.call('HSET', p .. id, 'owner', owner, 'name', ARGV[3], 'size', size, 'sha256', ARGV[5], 'chunkBytes', ARGV[6],
  'chunks', ARGV[7], 'verified', 0, 'touched', now, 'version', 0, 'fileKey', KEYS[1])
redis.call('SET', KEYS[1], id)
redis.call('HSET', KEYS[2], id, size)
refresh(id, owner, now, ttl)
return { 'new', id }
`);

/** ARGV: prefix, id, owner, now, cutoff, ttl, index, bytes. Returns 1, or 0 for an unknown upload. */
export const PUT = script(`${COMMON}
local id, owner, now = ARGV[2], ARGV[3], tonumber(ARGV[4])
if redis.call('HGET', p .. id, 'owner') ~= owner or not alive(id, tonumber(ARGV[5])) then return 0 end
redis.call('HSET', p .. id .. ':chunks', ARGV[7], ARGV[8])
redis.call('HSET', p .. id, 'touched', now, 'verified', 0)
redis.call('HINCRBY', p .. id, 'version', 1)
refresh(id, owner, now, tonumber(ARGV[6]))
return 1
`);

/** ARGV: prefix, id, owner, now, cutoff, ttl. Returns 1, or 0 for an unknown upload. */
export const TOUCH = script(`${COMMON}
local id, owner, now = ARGV[2], ARGV[3], tonumber(ARGV[4])
if redis.call('HGET', p .. id, 'owner') ~= owner or not alive(id, tonumber(ARGV[5])) then return 0 end
redis.call('HSET', p .. id, 'touched', now)
refresh(id, owner, now, tonumber(ARGV[6]))
return 1
`);

/** ARGV: prefix, id, version read. Marks the upload verified unless a chunk came since that version. */
export const VERIFIED = script(`${COMMON}
if redis.call('HGET', p .. ARGV[2], 'version') == ARGV[3] then redis.call('HSET', p .. ARGV[2], 'verified', 1) end
return 1
`);

/** ARGV: prefix, id, owner, cutoff. Returns 1, or 0 for an unknown upload. */
export const DROP = script(`${COMMON}
if redis.call('HGET', p .. ARGV[2], 'owner') ~= ARGV[3] or not alive(ARGV[2], tonumber(ARGV[4])) then return 0 end
drop(ARGV[2])
return 1
`);

/** ARGV: prefix, cutoff, most to drop. Drops abandoned uploads; returns how many. */
export const SWEEP = script(`${COMMON}
local ids = redis.call('ZRANGEBYSCORE', p .. 'touched', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do drop(id) end
return #ids
`);
