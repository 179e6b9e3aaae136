/**
 * The job store on Redis: a hash per job, a list per event log (seq n at index n - 1), the result
 * head and a list of its chunks (composed in a parts list, renamed with the head), and sorted sets
 * of unfinished and finished jobs. Per subject: a hash of counts and a day of starts, for the
 * quotas, and a list of its jobs newest first. Every write is one Lua script (redis-scripts.ts).
 */
import type { Redis } from "ioredis";
import * as z from "zod/mini";
import { JobEventSchema } from "../../../shared/job-events.js";
import { JobStatusSchema, isFinished } from "../../../shared/job-view.js";
import { CallerSchema } from "../caller.js";
import {
  PerKeyQueue,
  QuotaExceededError,
  ResultHeadSchema,
  StoreConflictError,
  checkContinues,
  chunkCount,
  inputBytes,
  inputFields,
  readStoredFold,
  readStoredInput,
  type JobPosition,
  type JobStore,
  type StoredJob,
} from "../store.js";
import {
  closeRedis,
  openRedis,
  subscribe,
  watchConnection,
  type ConnectionListener,
  type RedisConnection,
} from "../../redis/connection.js";
import { run, type Script } from "../../redis/scripts.js";
import { APPEND, CLAIM_FOLLOW_UP, CREATE, DELETE, EXPIRE, PUT_CHUNK } from "./redis-scripts.js";

export type RedisStoreOptions = {
  url?: string;
  /** A connection to use instead of opening one; the store leaves it open on `close()`. */
  client?: Redis;
  /** Put before every key; default "giftgenius:". */
  keyPrefix?: string;
  onConnectionChange?: ConnectionListener;
};

const FIELDS = ["owner", "createdAt", "status", "lastSeq", "fold"] as const;

/** A job's member in its owner's list, as the scripts' `listed` writes it. */
const listedAs = ({ createdAt, jobId }: JobPosition) => `${String(createdAt).padStart(15, "0")}:${jobId}`;

const toJob = (jobId: string, [owner, createdAt, status, lastSeq, fold]: (string | null)[]): StoredJob | undefined =>
  owner === null || createdAt === null || status === null || lastSeq === null
    ? undefined
    : {
        jobId,
        owner: CallerSchema.parse(JSON.parse(owner)),
        createdAt: Number(createdAt),
        status: JobStatusSchema.parse(status),
        lastSeq: Number(lastSeq),
        fold: readStoredFold(fold),
      };

/** A script's reply to a write: 1, or why it refused. */
const written = (reply: unknown) => {
  if (reply !== 1) throw new StoreConflictError(String(reply));
};

class RedisJobStore implements JobStore {
  readonly connection: RedisConnection;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #ownsConnection: boolean;
  readonly #watchers = new Set<(jobId: string) => void>();
  #subscriber: Redis | undefined;
  readonly #puts = new PerKeyQueue();

  constructor(connection: RedisConnection, keyPrefix: string, ownsConnection: boolean) {
    this.connection = connection;
    this.#redis = connection.redis;
    this.#prefix = keyPrefix;
    this.#ownsConnection = ownsConnection;
  }

  readonly create: JobStore["create"] = async (job, events, fold, quota) => {
    checkContinues(0, events);
    const { subject, sessionId } = job.owner;
    const input = Object.entries(inputFields(job.input)).flatMap(([k, v]) => (v === null ? [] : [k, v]));
    // a limit too large to reach is sent as one Lua's numbers can read
    const limits = quota && [quota.since, quota.maxUnfinished, quota.maxStartsSince, quota.maxBytes];
    const args = [job.jobId, subject, JSON.stringify({ subject, sessionId }), job.createdAt, JSON.stringify(fold)];
    args.push(fold.status, inputBytes(job.input), limits?.map((n) => (Number.isFinite(n) ? n : 1e300)).join(" ") ?? "");
    const reply = await this.#script(CREATE, ...args, input.length, ...input, ...events.map((e) => JSON.stringify(e)));
    if (reply === "quota") throw new QuotaExceededError(`no room for job ${job.jobId}`);
    written(reply);
  };

  readonly getJob: JobStore["getJob"] = async (jobId) =>
    toJob(jobId, await this.connection.guard(() => this.#redis.hmget(this.#key("job", jobId), ...FIELDS)));

  // one connection keeps commands in order, but a script resent after NOSCRIPT could overtake
  // the next put: each put of a job goes out once the one before it is answered
  readonly putResultChunk: JobStore["putResultChunk"] = (jobId, index, body) =>
    this.#puts.run(jobId, async () => {
      written(await this.#script(PUT_CHUNK, jobId, index, body, Buffer.byteLength(body)));
    });

  readonly append: JobStore["append"] = async (jobId, events, fold, head) => {
    const base = events.length === 0 ? -1 : events[0].seq - 1;
    checkContinues(Math.max(base, 0), events);
    const headText = head ? JSON.stringify(head) : "";
    const args = [jobId, base, JSON.stringify(fold), fold.status, headText, head ? chunkCount(head) : 0];
    written(await this.#script(APPEND, ...args, Buffer.byteLength(headText), ...events.map((e) => JSON.stringify(e))));
  };

  readonly readEvents: JobStore["readEvents"] = async (jobId, afterSeq, limit) => {
    const bodies = await this.#range(this.#key("events", jobId), afterSeq, Math.max(0, afterSeq) + limit);
    return bodies.map((body) => JobEventSchema.parse(JSON.parse(body)));
  };

  readonly readResultHead: JobStore["readResultHead"] = async (jobId) => {
    const head = await this.connection.guard(() => this.#redis.get(this.#key("result", jobId)));
    return head === null ? undefined : ResultHeadSchema.parse(JSON.parse(head));
  };

  readonly readChunks: JobStore["readChunks"] = async (jobId, from, to, composed = false) =>
    this.#range(this.#key(composed ? "parts" : "chunks", jobId), from, to);

  readonly listUnfinished: JobStore["listUnfinished"] = async () => {
    const ids = await this.connection.guard(() => this.#redis.zrange(this.#key("jobs", "unfinished"), 0, -1));
    // ended between the two reads: its status is the truth
    return (await this.#jobs(ids)).filter((job) => !isFinished(job.status));
  };

  readonly listJobs: JobStore["listJobs"] = async (subject, { before, limit }) => {
    const from = before === undefined ? "+" : `(${listedAs(before)}`;
    const members = await this.connection.guard(() =>
      this.#redis.zrevrangebylex(this.#key("list", subject), from, "-", "LIMIT", 0, limit),
    );
    return this.#jobs(members.map((m) => m.slice(m.indexOf(":") + 1)));
  };

  readonly claimFollowUp: JobStore["claimFollowUp"] = async (jobId) =>
    (await this.#script(CLAIM_FOLLOW_UP, jobId)) === 1;

  readonly expire: JobStore["expire"] = async (createdBefore) => {
    const max = Number.isFinite(createdBefore) ? `(${createdBefore}` : createdBefore > 0 ? "+inf" : "-inf";
    const ids = await this.#script(EXPIRE, max);
    return z.array(z.string()).parse(ids);
  };

  readonly readInput: JobStore["readInput"] = async (jobId) => {
    const [job, inputs] = [this.#key("job", jobId), this.#key("input", jobId)];
    const read = () => Promise.all([this.#redis.hget(job, "status"), this.#redis.hgetall(inputs)]);
    const [status, input] = await this.connection.guard(read);
    if (status === null || isFinished(JobStatusSchema.parse(status)) || input.occasion === undefined) return undefined;
    return readStoredInput(input);
  };

  readonly delete: JobStore["delete"] = async (jobId) => (await this.#script(DELETE, jobId)) === 1;

  readonly usage: JobStore["usage"] = async (subject, since) => {
    const starts = this.#key("starts", subject);
    const [counts, first, startedSince] = await this.connection.guard(() =>
      Promise.all([
        this.#redis.hmget(this.#key("usage", subject), "unfinished", "bytes"),
        this.#redis.zrangebyscore(starts, since, "+inf", "WITHSCORES", "LIMIT", 0, 1),
        this.#redis.zcount(starts, since, "+inf"),
      ]),
    );
    const [unfinished, bytes] = counts.map((n) => Math.max(0, Number(n ?? 0)));
    return { unfinished, bytes, startedSince, ...(first.length === 2 ? { firstStartSince: Number(first[1]) } : {}) };
  };

  readonly ping: JobStore["ping"] = async () => {
    await this.connection.guard(() => this.#redis.ping());
  };

  readonly watch: NonNullable<JobStore["watch"]> = (listener) => {
    this.#watchers.add(listener);
    // a missed wake-up ends at the poll's timeout
    this.#subscriber ??= subscribe(this.#redis, this.#key("appended"), (jobId) => {
      for (const w of [...this.#watchers]) w(jobId);
    });
    return () => void this.#watchers.delete(listener);
  };

  readonly close: JobStore["close"] = async () => {
    this.#watchers.clear();
    this.#subscriber?.disconnect();
    if (this.#ownsConnection) await closeRedis(this.#redis);
  };

  /** The jobs `ids` in that order, in one round trip; those deleted meanwhile left out. */
  async #jobs(ids: string[]): Promise<StoredJob[]> {
    const pipeline = this.#redis.pipeline();
    for (const id of ids) pipeline.hmget(this.#key("job", id), ...FIELDS);
    const rows = (await this.connection.guard(() => pipeline.exec())) ?? [];
    return ids.flatMap((id, i) => {
      const [error, row] = rows[i] ?? [];
      if (error) throw error;
      const job = toJob(id, row as (string | null)[]);
      return job ? [job] : [];
    });
  }

  /** A key as the scripts build it too: `${prefix}job:${jobId}`, `${prefix}jobs:finished`... */
  #key(...parts: string[]): string {
    return this.#prefix + parts.join(":");
  }

  /** Runs `script` with the key prefix before `args`. */
  #script(script: Script, ...args: (string | number)[]): Promise<unknown> {
    return this.connection.guard(() => run(this.#redis, script, [this.#prefix, ...args]));
  }

  async #range(key: string, from: number, to: number): Promise<string[]> {
    const start = Math.max(0, from);
    return to <= start ? [] : this.connection.guard(() => this.#redis.lrange(key, start, to - 1));
  }
}

/** A store on `client`, or on a connection to `url`; its `connection` is the job queue's too. */
export function createRedisStore({
  url = "redis://127.0.0.1:6379",
  client,
  keyPrefix = "giftgenius:",
  onConnectionChange,
}: RedisStoreOptions = {}): JobStore & { readonly connection: RedisConnection } {
  const connection = watchConnection(client ?? openRedis(url), onConnectionChange);
  return new RedisJobStore(connection, keyPrefix, client === undefined);
}
