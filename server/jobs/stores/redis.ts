/**
 * The job store on Redis (ioredis): a hash per job (owner, creation time, status, last seq, cached fold), a list
 * per event log (seq n at index n - 1, since seqs are gapless), the result head and a list of its
 * chunks, and two sorted sets by creation time, unfinished and finished jobs, for recovery and expiry.
 * Chunks being composed wait in a list of their own, renamed to the result's with the head.
 * Every write is one Lua script (redis-scripts.ts), so checks and writes are one atomic step, as in
 * the other stores.
 * Per subject, a hash counts unfinished jobs and stored bytes, and a sorted set holds a day of
 * creation times, for the quotas; each job's hash names its subject's hash and counts its own bytes.
 */
import type { Redis } from "ioredis";
import * as z from "zod/mini";
import { JobEventSchema } from "../../../shared/job-events.js";
import { JobStatusSchema, isFinished } from "../../../shared/job-view.js";
import { StartBulkInput, type StartBulkArgs } from "../../../shared/tools.js";
import {
  QuotaExceededError,
  ResultHeadSchema,
  StoreConflictError,
  checkContinues,
  chunkCount,
  inputBytes,
  readStoredFold,
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
import { APPEND, CREATE, DELETE, EXPIRE, PUT_CHUNK, run } from "./redis-scripts.js";

export type RedisStoreOptions = {
  /** Where to connect when no `client` is given; default redis://127.0.0.1:6379. */
  url?: string;
  /** A connection to use instead of opening one; the store leaves it open on `close()`. */
  client?: Redis;
  /** Put before every key, so that several stores (or apps) can share one Redis; default "giftgenius:". */
  keyPrefix?: string;
  /** Told once when the connection drops or stalls and once when it is back (see server/redis/connection.ts). */
  onConnectionChange?: ConnectionListener;
};

const OwnerSchema = z.object({ subject: z.string(), sessionId: z.optional(z.string()) });

/**
 * Creates a store on `client`, or on a new connection to `url` that `close()` ends. Its guarded
 * command `connection` is there to share: the job queue sends on it, so that what answers the
 * store's ping (/healthz) is what takes a job.
 */
export function createRedisStore({
  url = "redis://127.0.0.1:6379",
  client,
  keyPrefix = "giftgenius:",
  onConnectionChange,
}: RedisStoreOptions = {}): JobStore & { readonly connection: RedisConnection } {
  const connection = watchConnection(client ?? openRedis(url), onConnectionChange);
  const { redis, guard } = connection;
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
  /**
   * Where every write of events is announced with its job id, for `watch`: by the script that
   * writes them, so a writer that dies right after a write cannot leave it unannounced.
   */
  const appended = `${keyPrefix}appended`;
  const watchers = new Set<(jobId: string) => void>();
  let subscriber: Redis | undefined;
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
    connection,
    async create(job, events, fold, quota) {
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
        appended,
      ];
      const owner = JSON.stringify({ subject: job.owner.subject, sessionId: job.owner.sessionId });
      const args = [
        jobId,
        owner,
        job.createdAt,
        JSON.stringify(fold),
        fold.status,
        inputBytes(job.input),
        // a limit too large to reach is sent as one Lua's numbers can read
        quota === undefined
          ? ""
          : [quota.since, quota.maxUnfinished, quota.maxStartsSince, quota.maxBytes]
              .map((n) => (Number.isFinite(n) ? n : 1e300))
              .join(" "),
        input.length,
        ...input,
        ...events.map((e) => JSON.stringify(e)),
      ];
      const reply = await guard(() => run(redis, CREATE, keys, args));
      if (reply === "quota") throw new QuotaExceededError(`no room for job ${jobId}`);
      written(reply);
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
        appended,
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
        ...(employees === undefined ? {} : { employees: JSON.parse(employees) as StartBulkArgs["employees"] }),
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
      // a missed wake-up ends at the poll's timeout
      subscriber ??= subscribe(redis, appended, (jobId) => {
        for (const w of [...watchers]) w(jobId);
      });
      return () => void watchers.delete(listener);
    },
    async close() {
      watchers.clear();
      subscriber?.disconnect();
      if (!client) await closeRedis(redis);
    },
  };
}
