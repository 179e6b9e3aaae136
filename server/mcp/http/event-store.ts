/**
 * A bounded in-memory `EventStore` for one session, so an SSE stream that reconnects with
 * `Last-Event-ID` gets what it missed. Event ids are `<streamId>#<seq>`: the stream is read back
 * from the id itself, which also works for the SDK's standalone GET stream (`_GET_stream`),
 * whose underscores defeat the `split("_")` of the SDK's example store.
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export type EventStoreOptions = {
  /** Events kept per stream; older ones are dropped first. */
  maxEventsPerStream?: number;
  /** Streams kept; the one written least recently is dropped first. */
  maxStreams?: number;
};

type Stored = { seq: number; id: string; message: JSONRPCMessage };

const SEPARATOR = "#";

function parseId(eventId: string): { streamId: string; seq: number } | undefined {
  const at = eventId.lastIndexOf(SEPARATOR);
  const seq = Number(eventId.slice(at + 1));
  if (at <= 0 || !Number.isSafeInteger(seq)) return undefined;
  return { streamId: eventId.slice(0, at), seq };
}

/** Index of the first event with a seq above `seq` (events are in seq order). */
function firstAfter(events: Stored[], seq: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid].seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Priming events are stored as `{}` so their id exists; they carry nothing to replay. */
const isMessage = (m: JSONRPCMessage): boolean => "jsonrpc" in m;

export function createEventStore({ maxEventsPerStream = 1_000, maxStreams = 200 }: EventStoreOptions = {}): EventStore {
  const streams = new Map<string, Stored[]>();
  let seq = 0;

  return {
    async storeEvent(streamId, message) {
      const events = streams.get(streamId) ?? [];
      // Re-insert so Map order is least recently written first.
      streams.delete(streamId);
      streams.set(streamId, events);
      const id = `${streamId}${SEPARATOR}${++seq}`;
      events.push({ seq, id, message });
      if (events.length > maxEventsPerStream) events.splice(0, events.length - maxEventsPerStream);
      if (streams.size > maxStreams) {
        const [oldest] = streams.keys();
        streams.delete(oldest);
      }
      return id;
    },

    async getStreamIdForEventId(eventId) {
      const parsed = parseId(eventId);
      return parsed && streams.has(parsed.streamId) ? parsed.streamId : undefined;
    },

    async replayEventsAfter(lastEventId, { send }) {
      const parsed = parseId(lastEventId);
      if (!parsed) return "";
      const events = streams.get(parsed.streamId) ?? [];
      // Events stored while a send is pending are replayed too: the live stream is not
      // registered until the replay ends, so they would be lost otherwise.
      for (let after = parsed.seq, i = firstAfter(events, after); i < events.length; i = firstAfter(events, after)) {
        const event = events[i];
        after = event.seq;
        if (isMessage(event.message)) await send(event.id, event.message);
      }
      return parsed.streamId;
    },
  };
}
