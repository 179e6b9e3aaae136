/**
 * A session's stream over fake records and a fake feed, its timers driven by the test: what the
 * feed gives is written and sent once, the client's Last-Event-ID is where sending starts, and the
 * stream stops when its session ends, moves elsewhere or its client goes.
 */
import { describe, expect, it, vi } from "vitest";
import type { SessionRecords, StreamEntry, StreamItem } from "./session-records.js";
import { createSessionStreams, type Every, type StreamFeed, type StreamSource } from "./session-streams.js";

type Signal = Parameters<Parameters<SessionRecords["onSignal"]>[0]>[0];

function fakeRecords() {
  const entries: StreamEntry[] = [];
  const listeners = new Set<(signal: Signal) => void>();
  let alive = true;
  const after = (id: string) => entries.filter((e) => Number(e.id) > Number(id));
  const records = {
    claim: vi.fn(async () => 7),
    last: vi.fn(async () => String(entries.length)),
    read: vi.fn(async (_id: string, from: string) => after(from)),
    write: vi.fn(async (_id: string, items: StreamItem[], from: string) => {
      if (!alive) return undefined;
      for (const item of items) entries.push({ id: String(entries.length + 1), json: `"${item.jobId}:${item.seq}"` });
      return after(from);
    }),
    touch: vi.fn(async () => alive),
    onSignal: (listener: (signal: Signal) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    records: records as unknown as SessionRecords,
    entries,
    end: () => (alive = false),
    signal: (signal: Signal) => listeners.forEach((listener) => listener(signal)),
  };
}

/** A feed that gives what the test puts in it, and wakes its stream when it does. */
function fakeSource() {
  const queued: StreamItem[] = [];
  let wake = () => {};
  const refresh = vi.fn(async () => {});
  const closeSource = vi.fn();
  const feed: StreamFeed & { closed: boolean } = {
    closed: false,
    refresh,
    take: async () => queued.splice(0),
    get pending() {
      return queued.length > 0;
    },
    close: () => void (feed.closed = true),
  };
  const source: StreamSource = {
    open: (_stream, wakeStream) => ((wake = wakeStream), feed),
    follow: vi.fn(),
    close: closeSource,
  };
  const give = (...seqs: number[]) => {
    for (const seq of seqs) queued.push({ jobId: "j", seq, messages: [] });
    wake();
  };
  return { source, feed, give, refresh, closeSource };
}

function manualTimers() {
  const timers: { ms: number; run: () => void; on: boolean }[] = [];
  const every: Every = (ms, run) => {
    const timer = { ms, run, on: true };
    timers.push(timer);
    return () => void (timer.on = false);
  };
  const fire = (ms: number) => timers.filter((t) => t.ms === ms && t.on).forEach((t) => t.run());
  const running = () => timers.filter((t) => t.on).length;
  return { every, fire, running };
}

function setUp() {
  const records = fakeRecords();
  const source = fakeSource();
  const timers = manualTimers();
  const onError = vi.fn();
  const streams = createSessionStreams({
    records: records.records,
    source: source.source,
    tickMs: 100,
    keepAliveMs: 200,
    every: timers.every,
    onError,
  });
  return { ...records, ...source, ...timers, onError, streams };
}

/** The text the stream has sent, read until `done` holds or the stream ends. */
async function readUntil(response: Response, done: (text: string) => boolean): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return text;
}

const ids = (text: string) => [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]);

describe("a session's stream", () => {
  it("writes what its feed gives and sends each entry once, in order, as it comes", async () => {
    const s = setUp();
    const response = s.streams.open("s1", "alice", undefined);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("mcp-session-id")).toBe("s1");
    await vi.waitFor(() => expect(s.refresh).toHaveBeenCalledOnce());
    s.give(1, 2);
    const first = await readUntil(response, (t) => ids(t).length === 2);
    expect(ids(first)).toEqual(["1", "2"]);
    expect(first).toContain('data: "j:1"');
    s.give(3);
    expect(ids(await readUntil(response, (t) => ids(t).length === 1))).toEqual(["3"]);
    expect(s.onError).not.toHaveBeenCalled();
  });

  it("starts after the client's Last-Event-ID, replaying what others wrote", async () => {
    const s = setUp();
    s.entries.push({ id: "1", json: "1" }, { id: "2", json: "2" }, { id: "3", json: "3" });
    const response = s.streams.open("s1", "alice", "1");
    expect(ids(await readUntil(response, (t) => ids(t).length === 2))).toEqual(["2", "3"]);
  });

  it("sends a keep-alive comment on its timer, and catches up on its tick", async () => {
    const s = setUp();
    const response = s.streams.open("s1", "alice", undefined);
    await vi.waitFor(() => expect(s.refresh).toHaveBeenCalledOnce());
    s.fire(200);
    expect(await readUntil(response, (t) => t.includes(": keepalive"))).toBe(": keepalive\n\n");
    s.fire(100);
    await vi.waitFor(() => expect(s.refresh).toHaveBeenCalledTimes(2));
  });

  it("stops when its session ended: the body closes, the feed and the timers with it", async () => {
    const s = setUp();
    const response = s.streams.open("s1", "alice", undefined);
    await vi.waitFor(() => expect(s.refresh).toHaveBeenCalledOnce());
    s.end();
    s.fire(100);
    expect(await readUntil(response, () => false)).toBe("");
    expect(s.feed.closed).toBe(true);
    expect(s.running()).toBe(0);
    expect(s.streams.size).toBe(0);
  });

  it("stops when a newer stream of its session opened elsewhere, and not for an older one", async () => {
    const s = setUp();
    s.streams.open("s1", "alice", undefined);
    await vi.waitFor(() => expect(s.refresh).toHaveBeenCalledOnce());
    s.signal({ kind: "moved", sessionId: "s1", stream: 6 });
    expect(s.streams.size).toBe(1);
    s.signal({ kind: "moved", sessionId: "s1", stream: 8 });
    expect(s.streams.size).toBe(0);
    expect(s.feed.closed).toBe(true);
  });

  it("does not start when a newer stream of its session was heard while it was numbered", async () => {
    const s = setUp();
    s.signal({ kind: "moved", sessionId: "s1", stream: 9 });
    s.streams.open("s1", "alice", undefined);
    await vi.waitFor(() => expect(s.streams.size).toBe(0));
    expect(s.refresh).not.toHaveBeenCalled();
  });

  it("stops when its client goes, and closing the streams closes the source", async () => {
    const s = setUp();
    const response = s.streams.open("s1", "alice", undefined);
    await response.body!.cancel();
    expect(s.streams.size).toBe(0);
    expect(s.running()).toBe(0);
    s.streams.close();
    expect(s.closeSource).toHaveBeenCalledOnce();
  });
});
