/**
 * What a session's notification stream carries when sessions live in Redis (a cluster): the events
 * of the jobs the session follows, read from the job logs after the last seq already written to
 * the session's stream, as the notifications `messagesFor` makes of them. Appends anywhere wake the
 * stream that follows the job (the store's `watch`); a job started on any instance for a session is
 * followed from its first event. The transport (`http/session-streams.ts`) serves the stream and
 * knows this only as a `StreamSource`.
 */
import { isTerminalEvent } from "../../shared/job-events.js";
import { isFinished } from "../../shared/job-view.js";
import type { Caller } from "../jobs/caller.js";
import type { JobService } from "../jobs/job-service.js";
import type { JobStore } from "../jobs/store.js";
import { StoreUnavailableError } from "../store-errors.js";
import { openRedis, watchConnection, type ConnectionListener } from "../redis/connection.js";
import { createSessionRecords, type SessionRecords, type StreamItem } from "./http/session-records.js";
import {
  createSessionStreams,
  type SessionStreams,
  type SessionStreamsOptions,
  type StreamFeed,
  type StreamSource,
} from "./http/session-streams.js";
import { messagesFor } from "./notifications.js";

/** What the streams read of the job store. */
type JobStreamStore = Pick<JobStore, "readEvents" | "getJob" | "watch">;

type JobStreamsOptions = {
  records: SessionRecords;
  store: JobStreamStore;
  jobs: Pick<JobService, "onEvent">;
  onError: (error: Error) => void;
} & Pick<SessionStreamsOptions, "tickMs" | "keepAliveMs" | "every">;

/** Sessions' notification streams, served from Redis by any instance, carrying their jobs' events. */
export function createJobSessionStreams({
  records,
  store,
  jobs,
  onError,
  ...timing
}: JobStreamsOptions): SessionStreams {
  const report = (error: unknown) => {
    // the store's own connection says when Redis is gone and back; a stream retries at its next tick
    if (error instanceof StoreUnavailableError) return;
    onError(error instanceof Error ? error : new Error(String(error)));
  };
  const source = createJobStreamSource({ records, store, jobs, onError: report });
  return createSessionStreams({ records, source, onError: report, ...timing });
}

/** Events read from a job's log per take. */
const BATCH = 200;
/** Owners remembered, for the wake-ups of jobs this instance streams nothing of. */
const OWNERS_KEPT = 10_000;

type SourceOptions = Omit<JobStreamsOptions, "onError" | "tickMs" | "keepAliveMs" | "every"> & {
  onError: (error: unknown) => void;
};

/** The feeds of the sessions' streams open here, each woken by its jobs' appends wherever they happen. */
function createJobStreamSource({ records, store, jobs, onError }: SourceOptions): StreamSource {
  const feeds = new Map<string, JobFeed>();
  const owners = new Owners(store);

  /** The feed of the session that owns `jobId`, if this instance streams it. */
  async function feedFor(jobId: string): Promise<JobFeed | undefined> {
    if (feeds.size === 0) return undefined;
    const owner = await owners.of(jobId);
    const feed = owner?.sessionId === undefined ? undefined : feeds.get(owner.sessionId);
    return feed?.subject === owner?.subject ? feed : undefined;
  }

  const unwatch = store.watch?.((jobId) => {
    for (const feed of feeds.values()) feed.wake(jobId);
    // a job started on another instance for a session streamed here
    void feedFor(jobId)
      .then((feed) => feed?.follow(jobId))
      .catch(onError);
  });
  // a job's first event is appended where it is created
  const unlisten = jobs.onEvent(
    ({ event, owner }) => {
      if (event.type !== "job.created" || owner.sessionId === undefined) return;
      owners.know(event.jobId, owner);
      // so that whichever instance streams the session next follows the job from its first event
      records.follow(owner.sessionId, event.jobId).catch(onError);
      feeds.get(owner.sessionId)?.follow(event.jobId);
    },
    { appendedHere: true },
  );

  return {
    open({ sessionId, subject }, wake) {
      const onClose = (feed: JobFeed) => {
        if (feeds.get(sessionId) === feed) feeds.delete(sessionId);
      };
      const feed = new JobFeed({ sessionId, subject, records, store, owners, wake, onClose });
      feeds.set(sessionId, feed);
      return feed;
    },
    follow(sessionId, jobId) {
      feeds.get(sessionId)?.follow(jobId);
    },
    close() {
      unwatch?.();
      unlisten();
    },
  };
}

/** Who owns each job, remembered (the most recent `OWNERS_KEPT`); null for a job that is gone. */
class Owners {
  private readonly known = new Map<string, Caller | null>();

  constructor(private readonly store: Pick<JobStore, "getJob">) {}

  async of(jobId: string): Promise<Caller | null> {
    const known = this.known.get(jobId);
    if (known !== undefined) return known;
    const owner = (await this.store.getJob(jobId))?.owner ?? null;
    if (this.known.size >= OWNERS_KEPT) this.known.delete(this.known.keys().next().value!);
    this.known.set(jobId, owner);
    return owner;
  }

  know(jobId: string, owner: Caller): void {
    this.known.set(jobId, owner);
  }
}

type JobFeedOptions = {
  sessionId: string;
  subject: string;
  records: SessionRecords;
  store: JobStreamStore;
  owners: Owners;
  /** Wakes the stream, which then takes what is new. */
  wake: () => void;
  /** The stream is over. */
  onClose: (feed: JobFeed) => void;
};

/**
 * The jobs one stream follows: where it is in each job's log (`cursors`), which jobs have
 * something new (`dirty`), and which it holds every event of (`done`).
 */
class JobFeed implements StreamFeed {
  readonly subject: string;
  /** Last seq read from each followed job's log; absent until the job's start point is known. */
  private readonly cursors = new Map<string, number>();
  private readonly dirty = new Set<string>();
  /** Jobs whose every event the stream holds. */
  private readonly done = new Set<string>();

  constructor(private readonly options: JobFeedOptions) {
    this.subject = options.subject;
  }

  get pending(): boolean {
    return this.dirty.size > 0;
  }

  /** Wakes the stream if it follows `jobId`. */
  wake(jobId: string): void {
    if (!this.cursors.has(jobId)) return;
    this.dirty.add(jobId);
    this.options.wake();
  }

  /** Follows `jobId` from its first event, unless followed already. */
  follow(jobId: string): void {
    if (this.cursors.has(jobId) || this.done.has(jobId)) return;
    this.cursors.set(jobId, 0);
    this.wake(jobId);
  }

  /** Follows the jobs the session's record names that this stream does not follow yet; every job is read again. */
  async refresh(): Promise<void> {
    const { records, store, sessionId } = this.options;
    for (const [jobId, seq] of await records.followed(sessionId)) {
      if (this.cursors.has(jobId) || this.done.has(jobId)) continue;
      const job = await store.getJob(jobId);
      // gone, or ended with every event written already
      if (job === undefined || (isFinished(job.status) && job.lastSeq <= seq)) this.done.add(jobId);
      else this.cursors.set(jobId, seq);
    }
    for (const jobId of this.cursors.keys()) this.dirty.add(jobId);
  }

  /** What the followed jobs' logs hold past their cursors, as the session's messages. */
  async take(): Promise<StreamItem[]> {
    const items: StreamItem[] = [];
    for (const jobId of [...this.dirty]) {
      this.dirty.delete(jobId);
      const owner = await this.options.owners.of(jobId);
      const seq = this.cursors.get(jobId);
      if (owner === null || seq === undefined) continue;
      const events = await this.options.store.readEvents(jobId, seq, BATCH);
      if (events.length === BATCH) this.dirty.add(jobId);
      for (const event of events) {
        const messages = messagesFor({ event, owner }, this.options.sessionId, this.subject);
        items.push({ jobId, seq: event.seq, messages });
        this.cursors.set(jobId, event.seq);
        if (isTerminalEvent(event)) {
          this.cursors.delete(jobId);
          this.done.add(jobId);
        }
      }
    }
    return items;
  }

  close(): void {
    this.options.onClose(this);
  }
}

/** Sessions kept in Redis across instances (a cluster): their records, on a connection of their own, and the job store their streams read. */
export type ClusterSessions = {
  /** Session records kept for `ttlMs` after their last use. */
  records(ttlMs: number): SessionRecords;
  /** The job service's own store, which it closes. */
  store: JobStreamStore;
};

export type ClusterSessionsOptions = {
  /** The job store the notification streams read. */
  store: JobStreamStore;
  /** The Redis of the records, and the prefix of their keys. */
  url: string;
  keyPrefix: string;
  /** Hears the records' connection lost and back. */
  onConnectionChange?: ConnectionListener;
};

export function clusterSessionsOn({
  store,
  url,
  keyPrefix,
  onConnectionChange,
}: ClusterSessionsOptions): ClusterSessions {
  const records = (ttlMs: number) =>
    createSessionRecords(watchConnection(openRedis(url), onConnectionChange), keyPrefix, ttlMs);
  return { records, store };
}
