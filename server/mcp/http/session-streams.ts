/**
 * A session's notification stream (the GET of Streamable HTTP) served by any instance, from Redis
 * (session-records.ts). The instance serving it writes the session's job events into the
 * session's Redis stream, read from the job logs after the last seq already written, and sends
 * what the stream holds after the client's `Last-Event-ID`: events written by an instance that
 * served the stream before, or that died, are replayed; those nobody wrote yet are made again from
 * the logs. Appends anywhere wake it (the store's `watch`); a slow tick catches a lost wake-up.
 * Opening the stream on one instance closes the session's stream on any other.
 */
import { isTerminalEvent } from "../../../shared/job-events.js";
import { isFinished } from "../../../shared/job-view.js";
import type { Caller } from "../../jobs/caller.js";
import type { JobService } from "../../jobs/job-service.js";
import type { JobStore } from "../../jobs/store.js";
import { StoreUnavailableError } from "../../store-errors.js";
import { messagesFor } from "../notifications.js";
import type { SessionRecords, StreamEntry, StreamItem } from "./session-records.js";

export type SessionStreamOptions = {
  records: SessionRecords;
  store: Pick<JobStore, "readEvents" | "getJob" | "watch">;
  jobs: Pick<JobService, "onEvent">;
  /** How often an open stream keeps its session alive and looks for what a lost wake-up missed. */
  tickMs?: number;
  keepAliveMs?: number;
  onError: (error: Error) => void;
};

export type SessionStreams = {
  /** The session's stream, after `lastEventId` when given, else from now on. */
  open(sessionId: string, subject: string, lastEventId: string | undefined): Response;
  /** The session's stream, if this instance serves it, follows `jobId` from now on (a subscription). */
  follow(sessionId: string, jobId: string): void;
  readonly size: number;
  close(): void;
};

type Pump = { subject: string; stream: number; wake(jobId?: string): void; follow(jobId: string): void; stop(): void };

/** Events read from a job's log per step. */
const BATCH = 200;
/** Owners remembered, for the wake-ups of jobs this instance streams nothing of. */
const OWNERS_KEPT = 10_000;

export function createSessionStreams({
  records,
  store,
  jobs,
  tickMs = 5_000,
  keepAliveMs = 15_000,
  onError,
}: SessionStreamOptions): SessionStreams {
  const pumps = new Map<string, Pump>();
  const owners = new Map<string, Caller | null>();
  const report = (error: unknown) => {
    // the store's own connection says when Redis is gone and back; a stream retries at its next tick
    if (error instanceof StoreUnavailableError) return;
    onError(error instanceof Error ? error : new Error(String(error)));
  };

  async function ownerOf(jobId: string): Promise<Caller | null> {
    const known = owners.get(jobId);
    if (known !== undefined) return known;
    const owner = (await store.getJob(jobId))?.owner ?? null;
    if (owners.size >= OWNERS_KEPT) owners.delete(owners.keys().next().value!);
    owners.set(jobId, owner);
    return owner;
  }

  /** The pump of the session that owns `jobId`, if this instance streams it. */
  async function pumpFor(jobId: string): Promise<Pump | undefined> {
    if (pumps.size === 0) return undefined;
    const owner = await ownerOf(jobId);
    const pump = owner?.sessionId === undefined ? undefined : pumps.get(owner.sessionId);
    return pump?.subject === owner?.subject ? pump : undefined;
  }

  const unwatch = store.watch?.((jobId) => {
    for (const pump of pumps.values()) pump.wake(jobId);
    // a job started on another instance for a session streamed here
    void pumpFor(jobId)
      .then((pump) => pump?.follow(jobId))
      .catch(report);
  });
  // a job's first event is appended where it is created
  const unlisten = jobs.onEvent(
    ({ event, owner }) => {
      if (event.type !== "job.created" || owner.sessionId === undefined) return;
      owners.set(event.jobId, owner);
      // so that whichever instance streams the session next follows the job from its first event
      records.follow(owner.sessionId, event.jobId).catch(report);
      pumps.get(owner.sessionId)?.follow(event.jobId);
    },
    { appendedHere: true },
  );
  /** The newest stream number each session was heard to open, to close older streams opening late. */
  const newest = new Map<string, number>();
  const unsignal = records.onSignal((signal) => {
    const pump = pumps.get(signal.sessionId);
    if (signal.kind === "moved") {
      if (signal.stream > (newest.get(signal.sessionId) ?? 0)) newest.set(signal.sessionId, signal.stream);
      if (newest.size > OWNERS_KEPT) newest.delete(newest.keys().next().value!);
    }
    if (pump && (signal.kind === "ended" || (signal.kind === "moved" && signal.stream > pump.stream))) pump.stop();
  });

  function open(sessionId: string, subject: string, lastEventId: string | undefined): Response {
    pumps.get(sessionId)?.stop();
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    /** Last seq read from each followed job's log; absent until the job's start point is known. */
    const cursors = new Map<string, number>();
    const dirty = new Set<string>();
    /** Jobs whose every event the stream holds. */
    const done = new Set<string>();
    let after = lastEventId;
    let running = false;
    let stopped = false;

    const send = (list: StreamEntry[]) => {
      if (stopped) return; // the client went away while the step ran
      try {
        for (const { id, json } of list)
          controller.enqueue(encoder.encode(`event: message\nid: ${id}\ndata: ${json}\n\n`));
      } catch {
        return stop(); // the stream is gone without the client's cancel reaching it
      }
      if (list.length > 0) after = list[list.length - 1].id;
    };

    /** Writes what the followed jobs' logs hold past their cursors, and sends what the stream holds past `after`. */
    async function step(): Promise<void> {
      if (after === undefined) after = await records.last(sessionId);
      const items: StreamItem[] = [];
      for (const jobId of [...dirty]) {
        dirty.delete(jobId);
        const owner = await ownerOf(jobId);
        const seq = cursors.get(jobId);
        if (owner === null || seq === undefined) continue;
        const events = await store.readEvents(jobId, seq, BATCH);
        if (events.length === BATCH) dirty.add(jobId);
        for (const event of events) {
          items.push({ jobId, seq: event.seq, messages: messagesFor({ event, owner }, sessionId, subject) });
          cursors.set(jobId, event.seq);
          if (isTerminalEvent(event)) {
            cursors.delete(jobId);
            done.add(jobId);
          }
        }
      }
      const written =
        items.length > 0 ? await records.write(sessionId, items, after) : await records.read(sessionId, after);
      if (written === undefined) return stop(); // the session ended
      send(written);
    }

    async function pump() {
      if (running || stopped) return;
      running = true;
      try {
        do await step();
        while (dirty.size > 0 && !stopped);
      } catch (error) {
        report(error);
      } finally {
        running = false;
        if (dirty.size > 0 && !stopped) void pump();
      }
    }

    function stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(tick);
      clearInterval(keepAlive);
      if (pumps.get(sessionId) === self) pumps.delete(sessionId);
      try {
        controller.close();
      } catch {
        // closed by the client already
      }
    }

    const self: Pump = {
      subject,
      // not numbered yet: nothing closes it before it is
      stream: Infinity,
      wake(jobId) {
        if (jobId === undefined) for (const id of cursors.keys()) dirty.add(id);
        else if (cursors.has(jobId)) dirty.add(jobId);
        else return;
        void pump();
      },
      follow(jobId) {
        if (cursors.has(jobId) || done.has(jobId)) return;
        cursors.set(jobId, 0);
        self.wake(jobId);
      },
      stop,
    };

    /** Follows the jobs the session's record names that this stream does not follow yet. */
    async function adopt() {
      for (const [jobId, seq] of await records.followed(sessionId)) {
        if (cursors.has(jobId) || done.has(jobId)) continue;
        const job = await store.getJob(jobId);
        // gone, or ended with every event written already
        if (job === undefined || (isFinished(job.status) && job.lastSeq <= seq)) done.add(jobId);
        else cursors.set(jobId, seq);
      }
    }
    const tick = setInterval(() => {
      void (async () => {
        if (!(await records.touch(sessionId))) return stop();
        await adopt();
        self.wake();
      })().catch(report);
    }, tickMs);
    const keepAlive = setInterval(() => {
      try {
        controller.enqueue(encoder.encode(": keepalive\n\n"));
      } catch {
        stop(); // the stream is gone without the client's cancel reaching it
      }
    }, keepAliveMs);

    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      cancel: stop,
    });
    pumps.set(sessionId, self);
    void (async () => {
      self.stream = await records.claim(sessionId);
      // a newer stream of the session may have opened elsewhere while this one was numbered
      if ((newest.get(sessionId) ?? 0) > self.stream) return stop();
      await adopt();
      // sends what the stream holds already, even when no job has anything new
      self.wake();
    })().catch((error: unknown) => {
      report(error);
      stop();
    });

    return new Response(body, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
        "mcp-session-id": sessionId,
      },
    });
  }

  return {
    open,
    follow(sessionId, jobId) {
      pumps.get(sessionId)?.follow(jobId);
    },
    get size() {
      return pumps.size;
    },
    close() {
      unwatch?.();
      unlisten();
      unsignal();
      for (const pump of [...pumps.values()]) pump.stop();
    },
  };
}
