import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createEventBudget, createEventStore } from "./event-store.js";

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { level: "info", data: n },
});

/** A message whose JSON is exactly `bytes` long (at least 70). */
function sized(n: number, bytes: number): JSONRPCMessage {
  const message = {
    jsonrpc: "2.0" as const,
    method: "notifications/message",
    params: { level: "info", data: n, pad: "" },
  };
  message.params.pad = "x".repeat(bytes - JSON.stringify(message).length);
  return message;
}

/** What a stream would replay to a client that saw none of it. */
async function replayAll(store: ReturnType<typeof createEventStore>, streamId: string) {
  return (await replay(store, `${streamId}#0`)).sent.map((e) =>
    "method" in e.message ? e.message.params?.data : undefined,
  );
}

async function replay(store: ReturnType<typeof createEventStore>, after: string) {
  const sent: { id: string; message: JSONRPCMessage }[] = [];
  const streamId = await store.replayEventsAfter(after, {
    send: async (id, message) => void sent.push({ id, message }),
  });
  return { streamId, sent };
}

describe("createEventStore", () => {
  it("replays what a stream missed after the last event id, in order, and only that stream", async () => {
    const store = createEventStore();
    const first = await store.storeEvent("stream-a", note(1));
    await store.storeEvent("stream-b", note(99));
    await store.storeEvent("stream-a", note(2));
    await store.storeEvent("stream-a", note(3));
    const { streamId, sent } = await replay(store, first);
    expect(streamId).toBe("stream-a");
    expect(sent.map((e) => e.message)).toEqual([note(2), note(3)]);
  });

  it("finds the SDK's standalone GET stream from its event ids", async () => {
    const store = createEventStore();
    const id = await store.storeEvent("_GET_stream", note(1));
    await store.storeEvent("_GET_stream", note(2));
    expect(await store.getStreamIdForEventId?.(id)).toBe("_GET_stream");
    const { streamId, sent } = await replay(store, id);
    expect(streamId).toBe("_GET_stream");
    expect(sent.map((e) => e.message)).toEqual([note(2)]);
  });

  it("does not replay priming events, which carry no message", async () => {
    const store = createEventStore();
    const priming = await store.storeEvent("s", {} as JSONRPCMessage);
    await store.storeEvent("s", note(1));
    const { sent } = await replay(store, priming);
    expect(sent.map((e) => e.message)).toEqual([note(1)]);
  });

  it("also replays events stored while the replay is under way", async () => {
    const store = createEventStore();
    const first = await store.storeEvent("s", note(1));
    await store.storeEvent("s", note(2));
    const sent: JSONRPCMessage[] = [];
    await store.replayEventsAfter(first, {
      send: async (_id, message) => {
        sent.push(message);
        if (sent.length === 1) await store.storeEvent("s", note(3));
      },
    });
    expect(sent).toEqual([note(2), note(3)]);
  });

  it("keeps a bounded number of events per stream and of streams", async () => {
    const store = createEventStore({ maxEventsPerStream: 3, maxStreams: 2 });
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) ids.push(await store.storeEvent("s", note(i)));
    expect((await replay(store, ids[0])).sent.map((e) => e.message)).toEqual([note(4), note(5), note(6)]);
    await store.storeEvent("t", note(7));
    await store.storeEvent("u", note(8));
    expect(await store.getStreamIdForEventId?.(ids[5])).toBeUndefined();
    expect(await store.getStreamIdForEventId?.("no-separator")).toBeUndefined();
  });
});

describe("createEventStore on a byte budget", () => {
  it("keeps at most a session's byte budget, forgetting its oldest events first, and replays what it keeps", async () => {
    const budget = createEventBudget({ maxBytesPerSession: 1_000, maxBytes: 100_000 });
    const store = createEventStore({ budget });
    for (let i = 1; i <= 10; i++) await store.storeEvent(i % 2 ? "a" : "b", sized(i, 300));
    expect(await replayAll(store, "a")).toEqual([9]);
    expect(await replayAll(store, "b")).toEqual([8, 10]);
  });

  it("keeps at most the whole budget across every session's store, forgetting the oldest of any", async () => {
    const budget = createEventBudget({ maxBytesPerSession: 1_000, maxBytes: 2_000 });
    const stores = [0, 1, 2].map(() => createEventStore({ budget }));
    for (let i = 0; i < 30; i++) await stores[i % 3].storeEvent("s", sized(i, 200));
    expect([await replayAll(stores[0], "s"), await replayAll(stores[1], "s"), await replayAll(stores[2], "s")]).toEqual(
      [
        [21, 24, 27],
        [22, 25, 28],
        [20, 23, 26, 29],
      ],
    );
  });

  it("gives the bytes of a session's events back when they are forgotten by count or stream", async () => {
    // room for three events in all: bytes not given back would push out events still kept
    const budget = createEventBudget({ maxBytesPerSession: 100_000, maxBytes: 300 });
    const store = createEventStore({ budget, maxEventsPerStream: 2, maxStreams: 2 });
    for (let i = 0; i < 5; i++) await store.storeEvent("s", sized(i, 100));
    expect(await replayAll(store, "s")).toEqual([3, 4]);
    await store.storeEvent("t", sized(5, 100));
    await store.storeEvent("u", sized(6, 100));
    expect(await store.getStreamIdForEventId?.("s#1")).toBeUndefined();
    const other = createEventStore({ budget });
    await other.storeEvent("s", sized(7, 100));
    expect([await replayAll(store, "t"), await replayAll(store, "u"), await replayAll(other, "s")]).toEqual([
      [5],
      [6],
      [7],
    ]);
  });

  it("does not keep a message larger than a session's budget, yet its id orders the replay", async () => {
    const budget = createEventBudget({ maxBytesPerSession: 1_000 });
    const store = createEventStore({ budget });
    const first = await store.storeEvent("s", sized(1, 100));
    const big = await store.storeEvent("s", sized(2, 5_000));
    await store.storeEvent("s", sized(3, 100));
    expect(await replayAll(store, "s")).toEqual([1, 3]);
    expect((await replay(store, first)).sent.map((e) => e.id)).toEqual(["s#3"]);
    expect((await replay(store, big)).sent.map((e) => e.id)).toEqual(["s#3"]);
  });

  it("forgets events older than the time to live, those of ended sessions too", async () => {
    let clock = 0;
    const budget = createEventBudget({ ttlMs: 1_000, now: () => clock });
    const ended = createEventStore({ budget });
    const live = createEventStore({ budget });
    await ended.storeEvent("s", sized(1, 100));
    clock = 600;
    await live.storeEvent("s", sized(2, 100));
    clock = 1_200;
    await live.storeEvent("s", sized(3, 100));
    expect(await replayAll(ended, "s")).toEqual([]);
    expect(await replayAll(live, "s")).toEqual([2, 3]);
  });
});
