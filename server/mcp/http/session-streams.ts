/**
 * A session's notification stream (the GET of Streamable HTTP) served by any instance, from Redis
 * (session-records.ts). What the stream carries comes from a `StreamSource` this module knows only
 * by its interface (the session's jobs: `../job-streams.ts`). The instance serving the stream writes
 * what its feed gives into the session's Redis stream, and sends what that stream holds after the
 * client's `Last-Event-ID`: entries written by an instance that served the stream before, or that
 * died, are replayed. The feed wakes the stream when it has something; a slow tick keeps the
 * session alive and catches a lost wake-up. Opening the stream on one instance closes the
 * session's stream on any other.
 *
 * Why ours: the SDK serves a session's GET stream from the process that holds it; this one serves it from Redis.
 */
import type { SessionRecords, StreamEntry, StreamItem } from "./session-records.js";
import { sseResponse } from "./sse.js";

/** What one open stream of a session carries, and how it hears that there is more. */
export type StreamFeed = {
  /** Catches up with the session's record (on opening and at each tick); the next take reads all it follows again. */
  refresh(): Promise<void>;
  /** The items to write to the session's stream next, empty when nothing is new. */
  take(): Promise<StreamItem[]>;
  /** Whether `take` has more to give right away. */
  readonly pending: boolean;
  /** The stream is over: nothing reads this feed again. */
  close(): void;
};

/** Where the feeds of a session's streams come from. */
export type StreamSource = {
  /** A feed for a stream of `sessionId` opened by `subject`; it calls `wake` when it has something to take. */
  open(stream: { sessionId: string; subject: string }, wake: () => void): StreamFeed;
  /** The feed of `sessionId`'s stream, if this instance serves it, follows `jobId` from now on. */
  follow(sessionId: string, jobId: string): void;
  close(): void;
};

/** Runs `run` every `ms` until the returned function is called. */
export type Every = (ms: number, run: () => void) => () => void;

const every: Every = (ms, run) => {
  const timer = setInterval(run, ms);
  return () => clearInterval(timer);
};

export type SessionStreamsOptions = {
  records: SessionRecords;
  source: StreamSource;
  /** How often an open stream keeps its session alive and looks for what a lost wake-up missed. */
  tickMs?: number;
  keepAliveMs?: number;
  /** The streams' timers; `setInterval` unless a test drives them. */
  every?: Every;
  onError: (error: unknown) => void;
};

export type SessionStreams = {
  /** The session's stream, after `lastEventId` when given, else from now on. */
  open(sessionId: string, subject: string, lastEventId: string | undefined): Response;
  /** The session's stream, if this instance serves it, follows `jobId` from now on (a subscription). */
  follow(sessionId: string, jobId: string): void;
  readonly size: number;
  close(): void;
};

export function createSessionStreams({
  records,
  source,
  tickMs = 5_000,
  keepAliveMs = 15_000,
  every: timers = every,
  onError,
}: SessionStreamsOptions): SessionStreams {
  const streams = new Map<string, SessionStream>();
  const newest = new NewestStreams();
  const unsignal = records.onSignal((signal) => {
    const stream = streams.get(signal.sessionId);
    if (signal.kind === "moved") newest.heard(signal.sessionId, signal.stream);
    if (stream && (signal.kind === "ended" || (signal.kind === "moved" && signal.stream > stream.number)))
      stream.stop();
  });

  return {
    open(sessionId, subject, lastEventId) {
      streams.get(sessionId)?.stop();
      const stream = new SessionStream({
        sessionId,
        after: lastEventId,
        records,
        feed: (wake) => source.open({ sessionId, subject }, wake),
        newer: (number) => newest.of(sessionId) > number,
        onStop: (stopped) => {
          if (streams.get(sessionId) === stopped) streams.delete(sessionId);
        },
        tickMs,
        keepAliveMs,
        every: timers,
        onError,
      });
      streams.set(sessionId, stream);
      stream.start();
      return stream.response();
    },
    follow: (sessionId, jobId) => source.follow(sessionId, jobId),
    get size() {
      return streams.size;
    },
    close() {
      source.close();
      unsignal();
      for (const stream of [...streams.values()]) stream.stop();
    },
  };
}

/** Sessions remembered, for the streams that open late. */
const SESSIONS_KEPT = 10_000;

/** The newest stream number each session was heard to open, to close older streams opening late. */
class NewestStreams {
  private readonly numbers = new Map<string, number>();

  heard(sessionId: string, number: number): void {
    if (number > this.of(sessionId)) this.numbers.set(sessionId, number);
    if (this.numbers.size > SESSIONS_KEPT) this.numbers.delete(this.numbers.keys().next().value!);
  }

  of(sessionId: string): number {
    return this.numbers.get(sessionId) ?? 0;
  }
}

type SessionStreamInit = {
  sessionId: string;
  /** The id of the last entry the client has, if it said. */
  after: string | undefined;
  records: SessionRecords;
  /** The stream's feed, given the function that wakes the stream. */
  feed: (wake: () => void) => StreamFeed;
  /** Whether a newer stream of the session than `number` was heard to open. */
  newer: (number: number) => boolean;
  onStop: (stream: SessionStream) => void;
  tickMs: number;
  keepAliveMs: number;
  every: Every;
  onError: (error: unknown) => void;
};

const encoder = new TextEncoder();

/**
 * One open stream of a session on this instance: the SSE body, the id of the last entry sent
 * (`after`), whether a step is `running`, whether it `stopped`, and its two timers: the tick that
 * keeps the session and catches up, and the keep-alive comment.
 */
class SessionStream {
  /** The stream's number among the session's streams; not numbered yet, nothing closes it before it is. */
  number = Infinity;
  private after: string | undefined;
  private running = false;
  private stopped = false;
  private readonly feed: StreamFeed;
  private readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private readonly timers: (() => void)[];

  constructor(private readonly options: SessionStreamInit) {
    this.after = options.after;
    this.feed = options.feed(() => void this.pump());
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => this.stop(),
    });
    this.timers = [
      options.every(options.tickMs, () => void this.tick().catch(options.onError)),
      options.every(options.keepAliveMs, () => this.enqueue(": keepalive\n\n")),
    ];
  }

  /** Numbers the stream, then sends what the session's stream holds already, even when the feed has nothing new. */
  start(): void {
    const { records, sessionId, newer, onError } = this.options;
    void (async () => {
      this.number = await records.claim(sessionId);
      // a newer stream of the session may have opened elsewhere while this one was numbered
      if (newer(this.number)) return this.stop();
      await this.feed.refresh();
      void this.pump();
    })().catch((error: unknown) => {
      onError(error);
      this.stop();
    });
  }

  response(): Response {
    return sseResponse(this.body, { "mcp-session-id": this.options.sessionId });
  }

  readonly stop = (): void => {
    if (this.stopped) return;
    this.stopped = true;
    for (const cancel of this.timers) cancel();
    this.feed.close();
    this.options.onStop(this);
    try {
      this.controller.close();
    } catch {
      // closed by the client already
    }
  };

  private async tick(): Promise<void> {
    if (!(await this.options.records.touch(this.options.sessionId))) return this.stop();
    await this.feed.refresh();
    void this.pump();
  }

  /** Steps while the feed has more; one pump at a time, and another after it if a wake-up came late. */
  private async pump(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      do await this.step();
      while (this.feed.pending && !this.stopped);
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.running = false;
      if (this.feed.pending && !this.stopped) void this.pump();
    }
  }

  /** Writes what the feed gives, and sends what the session's stream holds past `after`. */
  private async step(): Promise<void> {
    const { records, sessionId } = this.options;
    const after = (this.after ??= await records.last(sessionId));
    const items = await this.feed.take();
    const written =
      items.length > 0 ? await records.write(sessionId, items, after) : await records.read(sessionId, after);
    if (written === undefined) return this.stop(); // the session ended
    this.send(written);
  }

  private send(entries: StreamEntry[]): void {
    if (this.stopped) return; // the client went away while the step ran
    for (const { id, json } of entries) if (!this.enqueue(`event: message\nid: ${id}\ndata: ${json}\n\n`)) return;
    if (entries.length > 0) this.after = entries[entries.length - 1].id;
  }

  /** Whether the frame went out; the stream stops when it is gone without the client's cancel reaching it. */
  private enqueue(frame: string): boolean {
    try {
      this.controller.enqueue(encoder.encode(frame));
      return true;
    } catch {
      this.stop();
      return false;
    }
  }
}
