/**
 * A bounded in-memory `EventStore` per session (the SDK ships only an unbounded example), so a
 * stream resumed with `Last-Event-ID` gets what it missed. Ids are `<streamId>#<seq>` (the SDK's
 * `_GET_stream` defeats a `split("_")`). Past a limit of events, streams, bytes or age the oldest go.
 */
import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

export type EventBudgetOptions = {
  /** JSON kept by all sessions' stores together. */
  maxBytes?: number;
  /** JSON kept by one session's store. */
  maxBytesPerSession?: number;
  /** How long an event stays replayable. */
  ttlMs?: number;
  now?: () => number;
};

type Kept = { seq: number; id: string; json: string; at: number; stream: Stream; owner: Owner };
type Stream = { events: Kept[] };
/** One store's share of the budget; a set keeps insertion order, so its first is its oldest. */
type Owner = { bytes: number; kept: Set<Kept>; pool: { used: number; kept: Set<Kept> } };

type EventBudget = ReturnType<typeof createEventBudget>;

const oldest = (kept: Set<Kept>): Kept | undefined => kept.values().next().value;

/** Drops a kept event from its stream and gives its bytes back; forgetting twice does nothing. */
function forget(event: Kept | undefined): void {
  if (!event?.owner.kept.delete(event)) return;
  const { owner, stream } = event;
  owner.pool.kept.delete(event);
  owner.bytes -= event.json.length;
  owner.pool.used -= event.json.length;
  const at = stream.events.indexOf(event);
  if (at !== -1) stream.events.splice(at, 1);
}

/** The byte budget that every session's store shares. */
export function createEventBudget({
  maxBytes = 64 * 1024 * 1024,
  maxBytesPerSession = 4 * 1024 * 1024,
  ttlMs = 5 * 60 * 1000,
  now = Date.now,
}: EventBudgetOptions = {}) {
  const pool = { used: 0, kept: new Set<Kept>() };

  return {
    join: (): Owner => ({ bytes: 0, kept: new Set(), pool }),

    /** Keeps an event on `stream` if it fits a session's budget, forgetting the oldest to make room. */
    keep(owner: Owner, stream: Stream, { seq, id, json }: { seq: number; id: string; json: string }) {
      const at = now();
      for (let old = oldest(pool.kept); old && at - old.at > ttlMs; old = oldest(pool.kept)) forget(old);
      if (json === "" || json.length > maxBytesPerSession) return;
      const event: Kept = { seq, id, json, at, stream, owner };
      stream.events.push(event);
      owner.kept.add(event);
      pool.kept.add(event);
      owner.bytes += json.length;
      pool.used += json.length;
      while (owner.bytes > maxBytesPerSession) forget(oldest(owner.kept));
      while (pool.used > maxBytes) forget(oldest(pool.kept));
    },
  };
}

function parseId(eventId: string): { streamId: string; seq: number } | undefined {
  const at = eventId.lastIndexOf("#");
  const seq = Number(eventId.slice(at + 1));
  if (at <= 0 || !Number.isSafeInteger(seq)) return undefined;
  return { streamId: eventId.slice(0, at), seq };
}

/** The stream an event id of this store belongs to, or undefined for an id it never gave. */
export const streamOfEventId = (eventId: string): string | undefined => parseId(eventId)?.streamId;

export function createEventStore({
  maxEventsPerStream = 1_000,
  maxStreams = 200,
  budget = createEventBudget(),
}: { maxEventsPerStream?: number; maxStreams?: number; budget?: EventBudget } = {}): EventStore {
  const streams = new Map<string, Stream>();
  const owner: Owner = budget.join();
  let seq = 0;

  return {
    async storeEvent(streamId, message) {
      const stream = streams.get(streamId) ?? { events: [] };
      // re-inserted: Map order is least recently written first
      streams.delete(streamId);
      streams.set(streamId, stream);
      const id = `${streamId}#${++seq}`;
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
      // the next event is looked up after each send: events stored meanwhile would be lost, the
      // live stream being registered only once the replay ends
      const after = (seq: number) => events.find((e) => e.seq > seq);
      for (let next = after(parsed.seq); next; next = after(next.seq)) {
        const message = JSON.parse(next.json) as JSONRPCMessage;
        // priming events are kept as `{}` so their id exists; they carry nothing to replay
        if ("jsonrpc" in message) await send(next.id, message);
      }
      return parsed.streamId;
    },
  };
}
