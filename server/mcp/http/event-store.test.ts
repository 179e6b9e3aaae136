import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createEventStore } from "./event-store.js";

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { level: "info", data: n },
});

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
