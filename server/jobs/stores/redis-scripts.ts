/**
 * The Redis store's Lua scripts, one per write, each one atomic step. Redis does not roll a script
 * back, so each checks first and writes after.
 */
import { script } from "../../redis/scripts.js";
import { STARTS_KEPT_MS } from "../store.js";

// Every script is given the store's key prefix first and builds its keys from it, as redis.ts
// names them: so these scripts need a single Redis node, not a cluster (fine for the deployments
// this store is for). A job's member in its owner's list (scores all 0, so in member order) is its
// creation time as 15 digits, then its id. A job is unfinished while pending or running.
const PRELUDE = `
local P = table.remove(ARGV, 1)
local function key(...) return P .. table.concat({...}, ':') end
local function listed(createdAt, id) return string.format('%015d', tonumber(createdAt)) .. ':' .. id end
local function isUnfinished(status) return status == 'pending' or status == 'running' end
local function addBytes(job, n)
  n = tonumber(n)
  if n == 0 then return end
  redis.call('HINCRBY', job, 'bytes', n)
  redis.call('HINCRBY', redis.call('HGET', job, 'usage'), 'bytes', n)
end
-- takes a job off its subject's counts (which go once empty), its list (older jobs are on none)
-- and the sets of jobs, and deletes its keys
local function forget(id)
  local job = key('job', id)
  local usage, bytes, status, list, createdAt =
    unpack(redis.call('HMGET', job, 'usage', 'bytes', 'status', 'list', 'createdAt'))
  if list then redis.call('ZREM', list, listed(createdAt, id)) end
  redis.call('HINCRBY', usage, 'bytes', 0 - tonumber(bytes))
  if isUnfinished(status) then redis.call('HINCRBY', usage, 'unfinished', -1) end
  local left, running = unpack(redis.call('HMGET', usage, 'bytes', 'unfinished'))
  if tonumber(left or 0) <= 0 and tonumber(running or 0) <= 0 then redis.call('UNLINK', usage) end
  for _, of in ipairs({ 'job', 'input', 'events', 'result', 'chunks', 'parts' }) do
    redis.call('UNLINK', key(of, id))
  end
  for _, set in ipairs({ 'unfinished', 'finished' }) do redis.call('ZREM', key('jobs', set), id) end
end`;

/** A script whose keys come from the prefix its caller sends before its own arguments. */
const keyed = (lua: string) => script(PRELUDE + lua);

export const CREATE = keyed(`
-- ARGV: id, subject, owner, createdAt, fold, status, input bytes, quota ('' for none, else 'since maxUnfinished
-- maxStarts maxBytes'), input pairs (count, ...), events...
local id, job, usage, starts = ARGV[1], key('job', ARGV[1]), key('usage', ARGV[2]), key('starts', ARGV[2])
if redis.call('EXISTS', job) == 1 then return 'job ' .. id .. ' already exists' end
if ARGV[8] ~= '' then
  local since, maxUnfinished, maxStarts, maxBytes = string.match(ARGV[8], '(%S+) (%S+) (%S+) (%S+)')
  local unfinished = math.max(0, tonumber(redis.call('HGET', usage, 'unfinished') or '0'))
  local bytes = math.max(0, tonumber(redis.call('HGET', usage, 'bytes') or '0'))
  if unfinished >= tonumber(maxUnfinished) or redis.call('ZCOUNT', starts, since, '+inf') >= tonumber(maxStarts)
    or bytes + tonumber(ARGV[7]) > tonumber(maxBytes) then return 'quota' end
end
local n = tonumber(ARGV[9])
redis.call('HSET', job, 'owner', ARGV[3], 'createdAt', ARGV[4], 'lastSeq', #ARGV - 9 - n, 'fold', ARGV[5],
  'status', ARGV[6], 'usage', usage, 'bytes', ARGV[7], 'inputBytes', ARGV[7], 'partsBytes', 0,
  'list', key('list', ARGV[2]))
for i = 10, 9 + n, 2 do redis.call('HSET', key('input', id), ARGV[i], ARGV[i + 1]) end
for i = 10 + n, #ARGV do redis.call('RPUSH', key('events', id), ARGV[i]) end
local unfinished = isUnfinished(ARGV[6])
redis.call('ZADD', key('jobs', unfinished and 'unfinished' or 'finished'), ARGV[4], id)
redis.call('HINCRBY', usage, 'bytes', ARGV[7])
if unfinished then redis.call('HINCRBY', usage, 'unfinished', 1) end
redis.call('ZREMRANGEBYSCORE', starts, '-inf', '(' .. (tonumber(ARGV[4]) - ${STARTS_KEPT_MS}))
redis.call('ZADD', starts, ARGV[4], id)
redis.call('PEXPIRE', starts, ${STARTS_KEPT_MS})
redis.call('ZADD', key('list', ARGV[2]), 0, listed(ARGV[4], id))
redis.call('PUBLISH', key('appended'), id)
return 1`);

export const PUT_CHUNK = keyed(`
-- ARGV: id, index, body, its bytes
local job, parts = key('job', ARGV[1]), key('parts', ARGV[1])
if redis.call('EXISTS', job) == 0 then return 'no job ' .. ARGV[1] end
if redis.call('ZSCORE', key('jobs', 'finished'), ARGV[1]) then return 'job ' .. ARGV[1] .. ' has ended' end
local count = redis.call('LLEN', parts)
if tonumber(ARGV[2]) ~= count then return 'expected chunk ' .. count .. ', got ' .. ARGV[2] end
redis.call('RPUSH', parts, ARGV[3])
addBytes(job, ARGV[4])
redis.call('HINCRBY', job, 'partsBytes', ARGV[4])
return 1`);

export const APPEND = keyed(`
-- ARGV: id, seq before the events (-1: none), fold, status, head ('': none), chunk count, head bytes, events...
local id = ARGV[1]
local job, head, parts = key('job', id), key('result', id), key('parts', id)
local last = redis.call('HGET', job, 'lastSeq')
if not last then return 'no job ' .. id end
last = tonumber(last)
local base = tonumber(ARGV[2])
if base ~= -1 and base ~= last then return 'expected seq ' .. (last + 1) .. ', got ' .. (base + 1) end
local hasHead = redis.call('EXISTS', head) == 1
local ends = not isUnfinished(ARGV[4])
if ARGV[5] ~= '' then
  if hasHead then return 'job ' .. id .. ' already has a result' end
  local put = redis.call('LLEN', parts)
  if put ~= tonumber(ARGV[6]) then return 'the result needs ' .. ARGV[6] .. ' chunks, ' .. put .. ' were put' end
end
local was = isUnfinished(redis.call('HGET', job, 'status'))
for i = 8, #ARGV do redis.call('RPUSH', key('events', id), ARGV[i]) end
redis.call('HSET', job, 'lastSeq', last + #ARGV - 7, 'fold', ARGV[3], 'status', ARGV[4])
if ARGV[5] ~= '' then
  redis.call('SET', head, ARGV[5])
  addBytes(job, ARGV[7])
  if redis.call('EXISTS', parts) == 1 then redis.call('RENAME', parts, key('chunks', id)) end
elseif ends and not hasHead then
  redis.call('UNLINK', parts)
  addBytes(job, -tonumber(redis.call('HGET', job, 'partsBytes')))
end
if ends then
  -- nothing reads a job's input once it has ended
  redis.call('UNLINK', key('input', id))
  addBytes(job, -tonumber(redis.call('HGET', job, 'inputBytes')))
  redis.call('HSET', job, 'inputBytes', 0, 'partsBytes', 0)
  if was then redis.call('HINCRBY', redis.call('HGET', job, 'usage'), 'unfinished', -1) end
end
-- the job is indexed by the status just written, whichever way it went
redis.call('ZREM', key('jobs', ends and 'unfinished' or 'finished'), id)
redis.call('ZADD', key('jobs', ends and 'finished' or 'unfinished'), redis.call('HGET', job, 'createdAt'), id)
redis.call('PUBLISH', key('appended'), id)
return 1`);

export const EXPIRE = keyed(`
-- ARGV: max score
local ids = redis.call('ZRANGEBYSCORE', key('jobs', 'finished'), '-inf', ARGV[1])
for _, id in ipairs(ids) do forget(id) end
return ids`);

export const DELETE = keyed(`
-- ARGV: id
if redis.call('EXISTS', key('job', ARGV[1])) == 0 then return 0 end
forget(ARGV[1])
return 1`);

export const CLAIM_FOLLOW_UP = keyed(`
-- ARGV: id
local job = key('job', ARGV[1])
local status = redis.call('HGET', job, 'status')
if not status or isUnfinished(status) then return 0 end
return redis.call('HSETNX', job, 'followUp', 1)`);
