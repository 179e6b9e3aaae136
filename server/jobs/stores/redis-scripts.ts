/**
 * The Redis store's Lua scripts, one per write, each one atomic step. Redis does not roll a script
 * back, so each checks first and writes after.
 */
import { script } from "../../redis/scripts.js";
import { STARTS_KEPT_MS } from "../store.js";

/** A job's member in its owner's list (scores all 0, so in member order): creation time as 15 digits, then id. */
const LISTED = `
local function listed(createdAt, id) return string.format('%015d', tonumber(createdAt)) .. ':' .. id end`;

export const CREATE = script(`
${LISTED}
-- KEYS: job, input, events, unfinished, finished, usage, starts, the channel of appends, the owner's list.
-- ARGV: id, owner, createdAt, fold, status, input bytes, quota ('' for none, else 'since maxUnfinished
-- maxStarts maxBytes'), input pairs (count, ...), events...
if redis.call('EXISTS', KEYS[1]) == 1 then return 'job ' .. ARGV[1] .. ' already exists' end
if ARGV[7] ~= '' then
  local since, maxUnfinished, maxStarts, maxBytes = string.match(ARGV[7], '(%S+) (%S+) (%S+) (%S+)')
  local unfinished = math.max(0, tonumber(redis.call('HGET', KEYS[6], 'unfinished') or '0'))
  local bytes = math.max(0, tonumber(redis.call('HGET', KEYS[6], 'bytes') or '0'))
  if unfinished >= tonumber(maxUnfinished) or redis.call('ZCOUNT', KEYS[7], since, '+inf') >= tonumber(maxStarts)
    or bytes + tonumber(ARGV[6]) > tonumber(maxBytes) then return 'quota' end
end
local n = tonumber(ARGV[8])
redis.call('HSET', KEYS[1], 'owner', ARGV[2], 'createdAt', ARGV[3], 'lastSeq', #ARGV - 8 - n, 'fold', ARGV[4],
  'status', ARGV[5], 'usage', KEYS[6], 'bytes', ARGV[6], 'inputBytes', ARGV[6], 'partsBytes', 0, 'list', KEYS[9])
for i = 9, 8 + n, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
for i = 9 + n, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
local unfinished = ARGV[5] == 'pending' or ARGV[5] == 'running'
redis.call('ZADD', unfinished and KEYS[4] or KEYS[5], ARGV[3], ARGV[1])
redis.call('HINCRBY', KEYS[6], 'bytes', ARGV[6])
if unfinished then redis.call('HINCRBY', KEYS[6], 'unfinished', 1) end
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', '(' .. (tonumber(ARGV[3]) - ${STARTS_KEPT_MS}))
redis.call('ZADD', KEYS[7], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[7], ${STARTS_KEPT_MS})
redis.call('ZADD', KEYS[9], 0, listed(ARGV[3], ARGV[1]))
redis.call('PUBLISH', KEYS[8], ARGV[1])
return 1`);

const ADD_BYTES = `
local function addBytes(job, n)
  n = tonumber(n)
  if n == 0 then return end
  redis.call('HINCRBY', job, 'bytes', n)
  redis.call('HINCRBY', redis.call('HGET', job, 'usage'), 'bytes', n)
end`;

export const PUT_CHUNK = script(`
${ADD_BYTES}
-- KEYS: job, parts, finished. ARGV: id, index, body, its bytes
if redis.call('EXISTS', KEYS[1]) == 0 then return 'no job ' .. ARGV[1] end
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 'job ' .. ARGV[1] .. ' has ended' end
local count = redis.call('LLEN', KEYS[2])
if tonumber(ARGV[2]) ~= count then return 'expected chunk ' .. count .. ', got ' .. ARGV[2] end
redis.call('RPUSH', KEYS[2], ARGV[3])
addBytes(KEYS[1], ARGV[4])
redis.call('HINCRBY', KEYS[1], 'partsBytes', ARGV[4])
return 1`);

export const APPEND = script(`
${ADD_BYTES}
-- KEYS: job, events, head, chunks, parts, unfinished, finished, input, the channel of appends.
-- ARGV: id, seq before the events (-1: none), fold, status, head ('': none), chunk count, head bytes, events...
local last = redis.call('HGET', KEYS[1], 'lastSeq')
if not last then return 'no job ' .. ARGV[1] end
last = tonumber(last)
local base = tonumber(ARGV[2])
if base ~= -1 and base ~= last then return 'expected seq ' .. (last + 1) .. ', got ' .. (base + 1) end
local hasHead = redis.call('EXISTS', KEYS[3]) == 1
local ends = ARGV[4] ~= 'pending' and ARGV[4] ~= 'running'
if ARGV[5] ~= '' then
  if hasHead then return 'job ' .. ARGV[1] .. ' already has a result' end
  local put = redis.call('LLEN', KEYS[5])
  if put ~= tonumber(ARGV[6]) then return 'the result needs ' .. ARGV[6] .. ' chunks, ' .. put .. ' were put' end
end
local before = redis.call('HGET', KEYS[1], 'status')
local was = before == 'pending' or before == 'running'
for i = 8, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('HSET', KEYS[1], 'lastSeq', last + #ARGV - 7, 'fold', ARGV[3], 'status', ARGV[4])
if ARGV[5] ~= '' then
  redis.call('SET', KEYS[3], ARGV[5])
  addBytes(KEYS[1], ARGV[7])
  if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('RENAME', KEYS[5], KEYS[4]) end
elseif ends and not hasHead then
  redis.call('UNLINK', KEYS[5])
  addBytes(KEYS[1], -tonumber(redis.call('HGET', KEYS[1], 'partsBytes')))
end
if ends then
  -- nothing reads a job's input once it has ended
  redis.call('UNLINK', KEYS[8])
  addBytes(KEYS[1], -tonumber(redis.call('HGET', KEYS[1], 'inputBytes')))
  redis.call('HSET', KEYS[1], 'inputBytes', 0, 'partsBytes', 0)
  if was then redis.call('HINCRBY', redis.call('HGET', KEYS[1], 'usage'), 'unfinished', -1) end
end
-- the job is indexed by the status just written, whichever way it went
local from, to = 7, 6
if ends then from, to = 6, 7 end
redis.call('ZREM', KEYS[from], ARGV[1])
redis.call('ZADD', KEYS[to], redis.call('HGET', KEYS[1], 'createdAt'), ARGV[1])
redis.call('PUBLISH', KEYS[9], ARGV[1])
return 1`);

// Takes a job off its subject's counts (which go once empty) and list (older jobs are on none), and
// deletes its keys, whose prefixes are ARGV[2] on.
const FORGET = `
${LISTED}
local function forget(id)
  local job = ARGV[2] .. id
  local usage, bytes, status, list, createdAt =
    unpack(redis.call('HMGET', job, 'usage', 'bytes', 'status', 'list', 'createdAt'))
  if list then redis.call('ZREM', list, listed(createdAt, id)) end
  redis.call('HINCRBY', usage, 'bytes', 0 - tonumber(bytes))
  if status == 'pending' or status == 'running' then redis.call('HINCRBY', usage, 'unfinished', -1) end
  local left, running = unpack(redis.call('HMGET', usage, 'bytes', 'unfinished'))
  if tonumber(left or 0) <= 0 and tonumber(running or 0) <= 0 then redis.call('UNLINK', usage) end
  for i = 2, #ARGV do redis.call('UNLINK', ARGV[i] .. id) end
end`;

// The per-job keys are built here from their prefixes (ARGV), so these scripts need a single
// Redis node, not a cluster: fine for the deployments this store is for.
export const EXPIRE = script(`
${FORGET}
-- KEYS: finished. ARGV: max score, then the prefix of each per-job key, the job hash's first
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for _, id in ipairs(ids) do
  forget(id)
  redis.call('ZREM', KEYS[1], id)
end
return ids`);

export const DELETE = script(`
${FORGET}
-- KEYS: unfinished, finished. ARGV: id, then the prefix of each per-job key, the job hash's first
if redis.call('EXISTS', ARGV[2] .. ARGV[1]) == 0 then return 0 end
forget(ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`);

export const CLAIM_FOLLOW_UP = script(`
-- KEYS: job
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'pending' or status == 'running' then return 0 end
return redis.call('HSETNX', KEYS[1], 'followUp', 1)`);
