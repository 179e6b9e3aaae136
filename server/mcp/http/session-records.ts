/**
 * Sessions kept in Redis, so that every instance can serve every session: a hash per session
 * (the subject that opened it, its `initialize` parameters, its log level, its subscriptions), the
 * jobs it follows with the last seq of each already written to its stream, and the stream itself:
 * the session's notifications, whose Redis ids are the SSE event ids a client resumes from with
 * `Last-Event-ID`. All of it expires after the session's idle time; a stream keeps an event at most
 * `STREAM_KEPT_MS` and `STREAM_MAX_EVENTS` events, as the in-memory event store does.
 *
 * Writes to a stream go through one script that takes the events of a job in order and writes
 * each at most once, however many instances offer it: the stream is a view of the job logs, made
 * again from them after any gap. A channel tells every instance that a session moved its
 * notification stream elsewhere or ended, or that its client cancelled a request (which only the
 * instance that took the request holds).
 *
 * Why ours: the SDK keeps sessions in one process; these records let any instance serve any session.
 */
import type { Redis } from "ioredis";
import { subscribe, type RedisConnection } from "../../redis/connection.js";
import * as z from "zod/mini";
import { run, script } from "../../redis/scripts.js";
import type { LoggingLevel } from "@modelcontextprotocol/server";
import { severity, type Condition, type Notification } from "../notifications.js";
import { parseJson } from "./parse-json.js";

const STREAM_KEPT_MS = 5 * 60_000;
const STREAM_MAX_EVENTS = 1_000;

type SessionRecord = { subject: string; init: unknown };
/** One job event's messages for a session's stream, written once per (job, seq). */
export type StreamItem = { jobId: string; seq: number; messages: { message: Notification; when: Condition }[] };
/** A stored notification: its SSE event id and its JSON. */
export type StreamEntry = { id: string; json: string };
/**
 * `moved`: the session's stream number `stream` opened somewhere; every older one closes.
 * `cancelled`: the client cancelled its request `requestId`.
 */
type SessionSignal =
  | { kind: "moved"; sessionId: string; stream: number }
  | { kind: "ended"; sessionId: string }
  | { kind: "cancelled"; sessionId: string; requestId: string | number };

/** A stream id, the only Last-Event-ID this store gave out. */
export const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

const NOTIFY = script(`
-- KEYS: the session, its jobs, its stream. ARGV: ttl ms, max events, oldest kept id, after id, items...
-- An item: job id, seq, message count, then (condition, json) per message. Conditions: '' always,
-- 'sub:<uri>' if subscribed, 'log:<n>' if the session's level is n or lower. Returns the entries after 'after id'.
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local level = tonumber(redis.call('HGET', KEYS[1], 'level') or '-1')
local i = 5
while i <= #ARGV do
  local job, seq, m = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  local fresh = seq > tonumber(redis.call('HGET', KEYS[2], job) or '0')
  if fresh then redis.call('HSET', KEYS[2], job, seq) end
  for j = i + 3, i + 2 + 2 * m, 2 do
    local cond = ARGV[j]
    local ok = cond == ''
    if string.sub(cond, 1, 4) == 'sub:' then ok = redis.call('HEXISTS', KEYS[1], cond) == 1 end
    if string.sub(cond, 1, 4) == 'log:' then ok = level >= 0 and tonumber(string.sub(cond, 5)) >= level end
    if fresh and ok then redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[2], '*', 'm', ARGV[j + 1]) end
  end
  i = i + 3 + 2 * m
end
redis.call('XTRIM', KEYS[3], 'MINID', '~', ARGV[3])
for k = 1, 3 do redis.call('PEXPIRE', KEYS[k], ARGV[1]) end
return redis.call('XRANGE', KEYS[3], '(' .. ARGV[4], '+', 'COUNT', ARGV[2])`);

const END_IF_IDLE = script(`
-- KEYS: the session, its jobs, its stream. ARGV: ttl ms, idle ms.
local left = redis.call('PTTL', KEYS[1])
if left < 0 or tonumber(ARGV[1]) - left < tonumber(ARGV[2]) then return 0 end
redis.call('UNLINK', KEYS[1], KEYS[2], KEYS[3])
return 1`);

export type SessionRecords = {
  save(id: string, record: SessionRecord): Promise<void>;
  /**
   * The session's record if `subject` opened it (else undefined, as for no session); a load uses
   * the session: it is kept for another idle time.
   */
  load(id: string, subject: string): Promise<SessionRecord | undefined>;
  /** Keeps the session for another idle time; false when it ended or expired. */
  touch(id: string): Promise<boolean>;
  /** Ends the session everywhere. */
  end(id: string): Promise<void>;
  /**
   * Ends the session everywhere if no instance has used it for `idleMs` (a use renews its expiry,
   * so the time since is the idle time less the time left); true when it did.
   */
  endIfIdle(id: string, idleMs: number): Promise<boolean>;
  setLevel(id: string, level: LoggingLevel): Promise<void>;
  /** Subscribes to `uri`; a job's result URI also makes the stream follow that job. */
  subscribe(id: string, uri: string, jobId?: string): Promise<void>;
  unsubscribe(id: string, uri: string): Promise<void>;
  /** The stream follows `jobId` from its first event. */
  follow(id: string, jobId: string): Promise<void>;
  /** The jobs the stream follows, each with the last seq written. */
  followed(id: string): Promise<Map<string, number>>;
  /**
   * Writes what is new in `items` and returns the entries after `after` (the others' writes too);
   * undefined when the session is gone.
   */
  write(id: string, items: StreamItem[], after: string): Promise<StreamEntry[] | undefined>;
  /** The entries after `after`, at most `STREAM_MAX_EVENTS`. */
  read(id: string, after: string): Promise<StreamEntry[]>;
  /** The id of the newest entry, or `0-0`. */
  last(id: string): Promise<string>;
  /** Numbers a new stream of the session, higher than any before it, and tells every instance. */
  claim(id: string): Promise<number>;
  /** Tells every instance that the session's client cancelled its request `requestId`. */
  cancelled(id: string, requestId: string | number): Promise<void>;
  /** Hears every instance's signals; returns the unsubscribe. */
  onSignal(listener: (signal: SessionSignal) => void): () => void;
  /** Ends the connections, `redis` included: the records own it. */
  close(): Promise<void>;
};

const Signal = z.union([
  z.object({ kind: z.literal("moved"), sessionId: z.string(), stream: z.number() }),
  z.object({ kind: z.literal("ended"), sessionId: z.string() }),
  z.object({ kind: z.literal("cancelled"), sessionId: z.string(), requestId: z.union([z.string(), z.number()]) }),
]);

function condition(when: Condition): string {
  if ("always" in when) return "";
  if ("subscribed" in when) return `sub:${when.subscribed}`;
  return `log:${severity(when.level)}`;
}

const entries = (reply: unknown): StreamEntry[] =>
  (reply as [string, string[]][]).map(([id, fields]) => ({ id, json: fields[1] }));

/** The channel every instance's signals go through: one subscriber, opened when first listened to. */
function createSignals(connection: RedisConnection, channel: string) {
  const { redis } = connection;
  const listeners = new Set<(signal: SessionSignal) => void>();
  let subscriber: Redis | undefined;
  return {
    signal: async (message: SessionSignal) => {
      await connection.guard(() => redis.publish(channel, JSON.stringify(message)));
    },
    onSignal: (listener: (signal: SessionSignal) => void) => {
      listeners.add(listener);
      // a missed signal: an ended session's copies and streams close at their next touch; an older
      // stream stays open beside the newer one, the two writing each event once between them
      subscriber ??= subscribe(redis, channel, (text) => {
        const parsed = Signal.safeParse(parseJson(text));
        if (parsed.success) for (const l of [...listeners]) l(parsed.data);
      });
      return () => void listeners.delete(listener);
    },
    stop: () => {
      listeners.clear();
      subscriber?.disconnect();
    },
  };
}

/** A session's notification stream in Redis: written through the script, read after an id. */
function streamOf(
  connection: RedisConnection,
  keys: (id: string) => string[],
  ttlMs: number,
): Pick<SessionRecords, "write" | "read" | "last"> {
  const { redis } = connection;
  return {
    write: async (id, items, after) => {
      const args: (string | number)[] = [ttlMs, STREAM_MAX_EVENTS, Date.now() - STREAM_KEPT_MS, after];
      for (const { jobId, seq, messages } of items) {
        args.push(jobId, seq, messages.length);
        for (const { message, when } of messages)
          args.push(condition(when), JSON.stringify({ jsonrpc: "2.0", ...message }));
      }
      const reply = await connection.guard(() => run(redis, NOTIFY, keys(id), args));
      return reply === null ? undefined : entries(reply);
    },
    read: async (id, after) =>
      entries(await connection.guard(() => redis.xrange(keys(id)[2], `(${after}`, "+", "COUNT", STREAM_MAX_EVENTS))),
    last: async (id) => {
      const [newest] = await connection.guard(() => redis.xrevrange(keys(id)[2], "+", "-", "COUNT", 1));
      return newest?.[0] ?? "0-0";
    },
  };
}

/**
 * Session records on `connection` (closed with them; calls wait for it as the job store's do) under
 * `prefix`, kept for `ttlMs` after their last use.
 */
export function createSessionRecords(connection: RedisConnection, prefix: string, ttlMs: number): SessionRecords {
  const { redis, guard } = connection;
  const keys = (id: string) => [
    `${prefix}session:${id}`,
    `${prefix}session:${id}:jobs`,
    `${prefix}session:${id}:stream`,
  ];
  const { signal, onSignal, stop } = createSignals({ redis, guard }, `${prefix}sessions`);
  /** Sends `multi` with every key of the session kept for another idle time after it. */
  const renewing = (id: string, multi = redis.multi()) => {
    for (const key of keys(id)) multi.pexpire(key, ttlMs);
    return guard(() => multi.exec());
  };

  return {
    async save(id, { subject, init }) {
      const [record] = keys(id);
      await guard(() =>
        redis.multi().hset(record, "subject", subject, "init", JSON.stringify(init)).pexpire(record, ttlMs).exec(),
      );
    },
    async load(id, subject) {
      const replies = await renewing(id, redis.multi().hmget(keys(id)[0], "subject", "init"));
      const [owner, init] = (replies?.[0]?.[1] as (string | null)[] | undefined) ?? [null, null];
      // another subject's session reads as one that does not exist
      return owner !== subject || init === null ? undefined : { subject, init: JSON.parse(init) };
    },
    async touch(id) {
      const replies = await renewing(id);
      return replies?.[0]?.[1] === 1;
    },
    async end(id) {
      await guard(() => redis.unlink(...keys(id)));
      await signal({ kind: "ended", sessionId: id });
    },
    async endIfIdle(id, idleMs) {
      const ended = await guard(() => run(redis, END_IF_IDLE, keys(id), [ttlMs, idleMs]));
      if (ended === 1) await signal({ kind: "ended", sessionId: id });
      return ended === 1;
    },
    async setLevel(id, level) {
      await guard(() => redis.hset(keys(id)[0], "level", severity(level)));
    },
    async subscribe(id, uri, jobId) {
      const [record, jobs] = keys(id);
      const multi = redis.multi().hset(record, `sub:${uri}`, 1);
      if (jobId !== undefined) multi.hsetnx(jobs, jobId, 0).pexpire(jobs, ttlMs);
      await guard(() => multi.exec());
    },
    async unsubscribe(id, uri) {
      await guard(() => redis.hdel(keys(id)[0], `sub:${uri}`));
    },
    async follow(id, jobId) {
      const [, jobs] = keys(id);
      await guard(() => redis.multi().hsetnx(jobs, jobId, 0).pexpire(jobs, ttlMs).exec());
    },
    async followed(id) {
      const all = await guard(() => redis.hgetall(keys(id)[1]));
      return new Map(Object.entries(all).map(([jobId, seq]) => [jobId, Number(seq)]));
    },
    ...streamOf(connection, keys, ttlMs),
    async claim(id) {
      const [record] = keys(id);
      const replies = await guard(() => redis.multi().hincrby(record, "streams", 1).pexpire(record, ttlMs).exec());
      const stream = Number(replies?.[0]?.[1]);
      await signal({ kind: "moved", sessionId: id, stream });
      return stream;
    },
    async cancelled(id, requestId) {
      await signal({ kind: "cancelled", sessionId: id, requestId });
    },
    onSignal,
    async close() {
      stop();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
