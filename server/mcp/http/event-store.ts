/**
 * A bounded in-memory `EventStore` for one session, so an SSE stream that reconnects with
 * `Last-Event-ID` gets what it missed. Event ids are `<streamId>#<seq>`: the stream is read back
 * from the id itself, which also works for the SDK's standalone GET stream (`_GET_stream`),
 * whose underscores defeat the `split("_")` of the SDK's example store. What a store keeps is
 * bounded in events, in streams, and in bytes, per session and across all sessions (`EventBudget`).
 *
 * Why ours: the SDK defines `EventStore` and ships only an unbounded example; this is the bounded one it plugs in.
 */
import type { EventStore } from "@modelcontextprotocol/server";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { createEventBudget, forget, type EventBudget, type Kept, type Owner, type Stream } from "./event-budget.js";

export type EventStoreOptions = {
  /** Events kept per stream; older ones are dropped first. */
  maxEventsPerStream?: number;
  /** Streams kept; the one written least recently is dropped first. */
  maxStreams?: number;
  /** The byte budget this store shares with the other sessions' stores. */
  budget?: EventBudget;
};

const SEPARATOR = "#";

function parseId(eventId: string): { streamId: string; seq: number } | undefined {
  const at = eventId.lastIndexOf(SEPARATOR);
  const seq = Number(eventId.slice(at + 1));
  if (at <= 0 || !Number.isSafeInteger(seq)) return undefined;
  return { streamId: eventId.slice(0, at), seq };
}

/** The stream an event id of this store belongs to, or undefined for an id it never gave. */
export const streamOfEventId = (eventId: string): string | undefined => parseId(eventId)?.streamId;

/** Index of the first event with a seq above `seq` (events are in seq order). */
function firstAfter(events: Kept[], seq: number): number {
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

export function createEventStore({
  maxEventsPerStream = 1_000,
  maxStreams = 200,
  budget = createEventBudget(),
}: EventStoreOptions = {}): EventStore {
  const streams = new Map<string, Stream>();
  const owner: Owner = budget.join();
  let seq = 0;

  return {
    async storeEvent(streamId, message) {
      const stream = streams.get(streamId) ?? { events: [] };
      // Re-insert so Map order is least recently written first.
      streams.delete(streamId);
      streams.set(streamId, stream);
      const id = `${streamId}${SEPARATOR}${++seq}`;
      budget.keep(owner, stream, { seq, id, json: JSON.stringify(message) });
      if (stream.events.length > maxEventsPerStream) forget(stream.events[0]);
      if (streams.size > maxStreams) {
        const [[oldestId, oldest]] = streams;
        streams.delete(oldestId);
        for (const event of [...oldest.events]) forget(event);
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
      const events = streams.get(parsed.streamId)?.events ?? [];
      // Events stored while a send is pending are replayed too: the live stream is not
      // registered until the replay ends, so they would be lost otherwise.
      for (let after = parsed.seq, i = firstAfter(events, after); i < events.length; i = firstAfter(events, after)) {
        const { seq, id, json } = events[i];
        after = seq;
        // kept as the JSON of a message the SDK sent: the text the budget measures, read back as it was
        const message = JSON.parse(json) as JSONRPCMessage;
        if (isMessage(message)) await send(id, message);
      }
      return parsed.streamId;
    },
  };
}
