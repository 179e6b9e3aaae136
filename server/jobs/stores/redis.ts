/**
 * The job store on Redis (ioredis): a hash per job (owner, creation time, status, last seq, cached fold), a list
 * per event log (seq n at index n - 1, since seqs are gapless), the result head and a list of its
 * chunks, and two sorted sets by creation time, unfinished and finished jobs, for recovery and expiry.
 * Chunks being composed wait in a list of their own, renamed to the result's with the head.
 * Every write is one Lua script, so checks and writes are one atomic step, as in the other stores.
 * Per subject, a hash counts unfinished jobs and stored bytes, and a sorted set holds a day of
 * creation times, for the quotas; each job's hash names its subject's hash and counts its own bytes.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import * as z from "zod/mini";
import { JobEventSchema } from "../../../shared/job-events.js";
import { JobStatusSchema, isFinished } from "../../../shared/job-view.js";
import { StartBulkInput } from "../../../shared/tools.js";
import {
  ResultHeadSchema,
  STARTS_KEPT_MS,
  StoreConflictError,
  checkContinues,
  chunkCount,
  inputBytes,
  readStoredFold,
  type JobStore,
  type StoredJob,
} from "../store.js";
import { openRedis, watchConnection, type ConnectionListener } from "./redis-connection.js";

export type RedisStoreOptions = {
  /** Where to connect when no `client` is given; default redis://127.0.0.1:6379. */
  url?: string;
  /** A connection to use instead of opening one; the store leaves it open on `close()`. */
  client?: Redis;
  /** Put before every key, so that several stores (or apps) can share one Redis; default "giftgenius:". */
  keyPrefix?: string;
  /** Told once when the connection drops and once when it is back (see redis-connection.ts). */
  onConnectionChange?: ConnectionListener;
};

const OwnerSchema = z.object({ subject: z.string(), sessionId: z.optional(z.string()) });

// Checks first, writes after: Redis does not roll a script back, so a refusal must come before any write.
const CREATE = script(`
-- KEYS: job, input, events, unfinished, finished, usage, starts.
-- ARGV: id, owner, createdAt, fold, status, input bytes, input pairs (count, ...), events...
if redis.call('EXISTS', KEYS[1]) == 1 then return 'job ' .. ARGV[1] .. ' already exists' end
local n = tonumber(ARGV[7])
redis.call('HSET', KEYS[1], 'owner', ARGV[2], 'createdAt', ARGV[3], 'lastSeq', #ARGV - 7 - n, 'fold', ARGV[4],
  'status', ARGV[5], 'usage', KEYS[6], 'bytes', ARGV[6], 'inputBytes', ARGV[6], 'partsBytes', 0)
for i = 8, 7 + n, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
for i = 8 + n, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
local unfinished = ARGV[5] == 'pending' or ARGV[5] == 'running'
redis.call('ZADD', unfinished and KEYS[4] or KEYS[5], ARGV[3], ARGV[1])
redis.call('HINCRBY', KEYS[6], 'bytes', ARGV[6])
if unfinished then redis.call('HINCRBY', KEYS[6], 'unfinished', 1) end
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', '(' .. (tonumber(ARGV[3]) - ${STARTS_KEPT_MS}))
redis.call('ZADD', KEYS[7], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[7], ${STARTS_KEPT_MS})
return 1`);

// Adds n bytes to a job's count and its subject's (jobs written before the counts have neither).
const ADD_BYTES = `
local function addBytes(job, n)
  n = tonumber(n)
  if n == 0 or not redis.call('HGET', job, 'bytes') then return end
  redis.call('HINCRBY', job, 'bytes', n)
  local usage = redis.call('HGET', job, 'usage')
  if usage then redis.call('HINCRBY', usage, 'bytes', n) end
end`;

const PUT_CHUNK = script(`
${ADD_BYTES}
-- KEYS: job, parts, finished. ARGV: id, index, body, its bytes
if redis.call('EXISTS', KEYS[1]) == 0 then return 'no job ' .. ARGV[1] end
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 'job ' .. ARGV[1] .. ' has ended' end
local count = redis.call('LLEN', KEYS[2])
if tonumber(ARGV[2]) ~= count then return 'expected chunk ' .. count .. ', got ' .. ARGV[2] end
redis.call('RPUSH', KEYS[2], ARGV[3])
addBytes(KEYS[1], ARGV[4])
if redis.call('HGET', KEYS[1], 'partsBytes') then redis.call('HINCRBY', KEYS[1], 'partsBytes', ARGV[4]) end
return 1`);

const APPEND = script(`
${ADD_BYTES}
-- KEYS: job, events, head, chunks, parts, unfinished, finished, input.
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
  addBytes(KEYS[1], -tonumber(redis.call('HGET', KEYS[1], 'partsBytes') or 0))
end
if ends then
  -- nothing reads a job's input once it has ended
  redis.call('UNLINK', KEYS[8])
  addBytes(KEYS[1], -tonumber(redis.call('HGET', KEYS[1], 'inputBytes') or 0))
  redis.call('HSET', KEYS[1], 'inputBytes', 0, 'partsBytes', 0)
  local usage = redis.call('HGET', KEYS[1], 'usage')
  if was and usage then redis.call('HINCRBY', usage, 'unfinished', -1) end
end
-- the job is indexed by the status just written, whichever way it went
local from, to = 7, 6
if ends then from, to = 6, 7 end
redis.call('ZREM', KEYS[from], ARGV[1])
redis.call('ZADD', KEYS[to], redis.call('HGET', KEYS[1], 'createdAt'), ARGV[1])
return 1`);

// The per-job keys are built here from their prefixes (ARGV), so this one script needs a single
// Redis node, not a cluster: fine for the deployments this store is for.
// Takes a job's bytes (and its place, if unfinished) off its subject's counts, which go once empty.
const FORGET = `
local function forget(job)
  local usage, bytes, status = unpack(redis.call('HMGET', job, 'usage', 'bytes', 'status'))
  if not usage then return end
  if bytes then redis.call('HINCRBY', usage, 'bytes', 0 - tonumber(bytes)) end
  if status == 'pending' or status == 'running' then redis.call('HINCRBY', usage, 'unfinished', -1) end
  local left, running = unpack(redis.call('HMGET', usage, 'bytes', 'unfinished'))
  if tonumber(left or 0) <= 0 and tonumber(running or 0) <= 0 then redis.call('UNLINK', usage) end
end`;

const EXPIRE = script(`
${FORGET}
-- KEYS: finished. ARGV: max score, then the prefix of each per-job key, the job hash's first
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for _, id in ipairs(ids) do
  forget(ARGV[2] .. id)
  for i = 2, #ARGV do redis.call('UNLINK', ARGV[i] .. id) end
  redis.call('ZREM', KEYS[1], id)
end
return ids`);

const DELETE = script(`
${FORGET}
-- KEYS: unfinished, finished. ARGV: id, then the prefix of each per-job key, the job hash's first
if redis.call('EXISTS', ARGV[2] .. ARGV[1]) == 0 then return 0 end
forget(ARGV[2] .. ARGV[1])
for i = 2, #ARGV do redis.call('UNLINK', ARGV[i] .. ARGV[1]) end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`);

/** Creates a store on `client`, or on a new connection to `url` that `close()` ends. */
export function createRedisStore({
  url = "redis://127.0.0.1:6379",
  client,
  keyPrefix = "giftgenius:",
  onConnectionChange,
}: RedisStoreOptions = {}): JobStore {
  const { redis, guard } = watchConnection(client ?? openRedis(url), onConnectionChange);
  const per = {
    job: `${keyPrefix}job:`,
    input: `${keyPrefix}input:`,
    events: `${keyPrefix}events:`,
    head: `${keyPrefix}result:`,
    chunks: `${keyPrefix}chunks:`,
    parts: `${keyPrefix}parts:`,
  };
  const usageOf = (subject: string) => `${keyPrefix}usage:${subject}`;
  const startsOf = (subject: string) => `${keyPrefix}starts:${subject}`;
  const unfinished = `${keyPrefix}jobs:unfinished`;
  const finished = `${keyPrefix}jobs:finished`;
  /** Where every write of events is announced with its job id, for `watch`. */
  const appended = `${keyPrefix}appended`;
  const watchers = new Set<(jobId: string) => void>();
  let subscriber: Redis | undefined;
  /** Tells the other instances, after the write (a subscriber that missed it rereads at its timeout). */
  const announce = (jobId: string) => void redis.publish(appended, jobId).catch(() => {});
  const written = (reply: unknown) => {
    if (reply !== 1) throw new StoreConflictError(String(reply));
  };
  const toJob = (jobId: string, [owner, createdAt, status, lastSeq, fold]: (string | null)[]): StoredJob | undefined =>
    owner === null || createdAt === null || status === null || lastSeq === null
      ? undefined
      : {
          jobId,
          owner: OwnerSchema.parse(JSON.parse(owner)),
          createdAt: Number(createdAt),
          status: JobStatusSchema.parse(status),
          lastSeq: Number(lastSeq),
          fold: readStoredFold(fold),
        };
  const fields = ["owner", "createdAt", "status", "lastSeq", "fold"] as const;
  const puts = new Map<string, Promise<void>>(); // the last chunk put of each job, see putResultChunk

  return {
    async create(job, events, fold) {
      checkContinues(0, events);
      const { occasion, budgetPerPerson, csv, employees } = job.input;
      // the CSV as it came, not JSON-encoded: it can be megabytes
      const input = ["occasion", occasion, "budgetPerPerson", budgetPerPerson];
      if (csv !== undefined) input.push("csv", csv);
      if (employees !== undefined) input.push("employees", JSON.stringify(employees));
      const { jobId } = job;
      const subject = job.owner.subject;
      const keys = [
        per.job + jobId,
        per.input + jobId,
        per.events + jobId,
        unfinished,
        finished,
        usageOf(subject),
        startsOf(subject),
      ];
      const owner = JSON.stringify({ subject: job.owner.subject, sessionId: job.owner.sessionId });
      const args = [
        jobId,
        owner,
        job.createdAt,
        JSON.stringify(fold),
        fold.status,
        inputBytes(job.input),
        input.length,
        ...input,
        ...events.map((e) => JSON.stringify(e)),
      ];
      written(await guard(() => run(redis, CREATE, keys, args)));
      announce(jobId);
    },
    async getJob(jobId) {
      return toJob(jobId, await guard(() => redis.hmget(per.job + jobId, ...fields)));
    },
    putResultChunk(jobId, index, body) {
      // one connection keeps commands in order, but a script resent after NOSCRIPT could overtake
      // the next put: each put of a job goes out once the one before it is answered
      const put = (puts.get(jobId) ?? Promise.resolve())
        .catch(() => {})
        .then(async () => {
          const keys = [per.job + jobId, per.parts + jobId, finished];
          written(await guard(() => run(redis, PUT_CHUNK, keys, [jobId, index, body, Buffer.byteLength(body)])));
        });
      puts.set(jobId, put);
      const settled = () => void (puts.get(jobId) === put && puts.delete(jobId));
      put.then(settled, settled);
      return put;
    },
    async append(jobId, events, fold, head) {
      const base = events.length === 0 ? -1 : events[0].seq - 1;
      checkContinues(Math.max(base, 0), events);
      const keys = [
        per.job + jobId,
        per.events + jobId,
        per.head + jobId,
        per.chunks + jobId,
        per.parts + jobId,
        unfinished,
        finished,
        per.input + jobId,
      ];
      const headText = head ? JSON.stringify(head) : "";
      const args = [
        jobId,
        base,
        JSON.stringify(fold),
        fold.status,
        headText,
        head ? chunkCount(head) : 0,
        Buffer.byteLength(headText),
        ...events.map((e) => JSON.stringify(e)),
      ];
      written(await guard(() => run(redis, APPEND, keys, args)));
      announce(jobId);
    },
    async readEvents(jobId, afterSeq, limit) {
      const from = Math.max(0, afterSeq);
      if (limit <= 0) return [];
      const bodies = await guard(() => redis.lrange(per.events + jobId, from, from + limit - 1));
      return bodies.map((body) => JobEventSchema.parse(JSON.parse(body)));
    },
    async readResultHead(jobId) {
      const head = await guard(() => redis.get(per.head + jobId));
      return head === null ? undefined : ResultHeadSchema.parse(JSON.parse(head));
    },
    async readResultChunks(jobId, from, to) {
      const start = Math.max(0, from);
      return to <= start ? [] : guard(() => redis.lrange(per.chunks + jobId, start, to - 1));
    },
    async readComposedChunks(jobId, from, to) {
      // chunks being composed wait in the parts list, which the commit renames and an end deletes
      const start = Math.max(0, from);
      return to <= start ? [] : guard(() => redis.lrange(per.parts + jobId, start, to - 1));
    },
    async listUnfinished() {
      const ids = await guard(() => redis.zrange(unfinished, 0, -1));
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hmget(per.job + id, ...fields);
      const rows = (await guard(() => pipeline.exec())) ?? [];
      return ids.flatMap((id, i) => {
        const [error, row] = rows[i] ?? [];
        if (error) throw error;
        const job = toJob(id, row as (string | null)[]);
        // ended between the two reads: its status is the truth
        return job && !isFinished(job.status) ? [job] : [];
      });
    },
    async expire(createdBefore) {
      const max = Number.isFinite(createdBefore) ? `(${createdBefore}` : createdBefore > 0 ? "+inf" : "-inf";
      const ids = await guard(() => run(redis, EXPIRE, [finished], [max, ...Object.values(per)]));
      return z.array(z.string()).parse(ids);
    },
    async readInput(jobId) {
      const [status, input] = await guard(() =>
        Promise.all([redis.hget(per.job + jobId, "status"), redis.hgetall(per.input + jobId)]),
      );
      if (status === null || isFinished(JobStatusSchema.parse(status)) || input.occasion === undefined)
        return undefined;
      const { occasion, budgetPerPerson, csv, employees } = input;
      return StartBulkInput.parse({
        occasion,
        budgetPerPerson: Number(budgetPerPerson),
        ...(csv === undefined ? {} : { csv }),
        ...(employees === undefined ? {} : { employees: JSON.parse(employees) }),
      });
    },
    async delete(jobId) {
      const args = [jobId, ...Object.values(per)];
      return (await guard(() => run(redis, DELETE, [unfinished, finished], args))) === 1;
    },
    async usage(subject, since) {
      const [counts, first, started] = await guard(() =>
        Promise.all([
          redis.hmget(usageOf(subject), "unfinished", "bytes"),
          redis.zrangebyscore(startsOf(subject), since, "+inf", "WITHSCORES", "LIMIT", 0, 1),
          redis.zcount(startsOf(subject), since, "+inf"),
        ]),
      );
      const [unfinishedJobs, bytes] = counts.map((n) => Math.max(0, Number(n ?? 0)));
      return {
        unfinished: unfinishedJobs,
        bytes,
        startedSince: started,
        ...(first.length === 2 ? { firstStartSince: Number(first[1]) } : {}),
      };
    },
    async ping() {
      await guard(() => redis.ping());
    },
    watch(listener) {
      watchers.add(listener);
      if (subscriber === undefined) {
        // a connection of its own: one that subscribes can send nothing else
        // and a queue of its own: it subscribes before it is connected, and again after each drop
        const sub = redis.duplicate({ enableOfflineQueue: true });
        subscriber = sub;
        sub.on("message", (channel: string, jobId: string) => {
          if (channel === appended) for (const w of [...watchers]) w(jobId);
        });
        sub.on("error", () => {}); // ioredis reconnects by itself; a missed wake-up ends at the poll's timeout
        void sub.subscribe(appended).catch(() => {});
      }
      return () => void watchers.delete(listener);
    },
    async close() {
      watchers.clear();
      subscriber?.disconnect();
      if (client) return;
      // quit waits for replies in flight; without a connection there is nothing to wait for
      if (redis.status === "ready") await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

type Script = { lua: string; sha: string };
function script(lua: string): Script {
  return { lua, sha: createHash("sha1").update(lua).digest("hex") };
}

/** Runs a script by its hash, sending the text only when this Redis has not seen it yet. */
async function run(redis: Redis, { lua, sha }: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
  try {
    return await redis.evalsha(sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
    return redis.eval(lua, keys.length, ...keys, ...args);
  }
}
