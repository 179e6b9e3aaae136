/**
 * Sessions' SSE answers in flight, so `notifications/cancelled` ends the request's stream at once
 * (the SDK's transport keeps it open: no answer ever comes); a resume of it is told it is over (204).
 * The SDK closes a stream when asked but does not say which carries a request: read from event ids.
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  isSpecType,
  type RequestId,
} from "@modelcontextprotocol/server";
import { streamOfEventId } from "./event-store.js";

/** The transport's side: it closes the stream that carries a request, once what it wrote is read. */
export type StreamCloser = { closeSSEStream(requestId: RequestId): void };

/** One POST's stream: its requests still open, and, once handed out, how to close it. */
type Flight = { ids: RequestId[]; open: Set<string>; cancelled: boolean; streamId?: string; close?: () => void };

const messagesOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);
const idKey = (id: RequestId) => JSON.stringify(id);
const EVENT_ID = /^id: (.+)$/m;
const DATA = /^data: (.+)$/m;

/** The answer's id in one SSE event as the SDK writes them, if it is an answer. */
function answered(text: string): RequestId | undefined {
  let message: unknown;
  try {
    message = JSON.parse(DATA.exec(text)?.[1] ?? "null");
  } catch {
    return undefined;
  }
  return isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message) ? message.id : undefined;
}

/** Closes the stream if it was cancelled and none of its requests is still to be answered. */
const settle = (flight: Flight) => {
  if (flight.cancelled && flight.open.size === 0) flight.close?.();
};

/** `source` passed on, telling `flight` what it carries; `drop` once over, `ended` if a cancellation ended it. */
function watch(flight: Flight, source: ReadableStream<Uint8Array>, drop: () => void, ended: (id: string) => void) {
  const decoder = new TextDecoder();
  const passing = new TransformStream<Uint8Array, Uint8Array>(
    {
      transform(chunk, controller) {
        controller.enqueue(chunk);
        if (flight.streamId !== undefined && flight.ids.length === 1) return;
        const text = decoder.decode(chunk);
        flight.streamId ??= streamOfEventId(EVENT_ID.exec(text)?.[1] ?? "");
        // a batch's stream waits for every answer, and a cancelled one's never comes: count the others
        const id = flight.ids.length > 1 ? answered(text) : undefined;
        if (id === undefined) return;
        flight.open.delete(idKey(id));
        settle(flight);
      },
      flush() {
        if (flight.cancelled && flight.streamId !== undefined) ended(flight.streamId);
      },
    },
    undefined,
    // read as written (the transport queues without bound anyway): the id is known before the client reads
    { highWaterMark: Infinity },
  );
  // a client that goes away cancels the transport's stream through the pipe
  void source
    .pipeTo(passing.writable)
    .catch(() => {})
    .finally(drop);
  return passing.readable;
}

export function createRequestStreams({ keptEnded = 10_000 } = {}) {
  const flights = new Map<string, Flight>();
  /** Streams a cancellation ended, the oldest forgotten past `keptEnded`. */
  const ended = new Set<string>();

  const remember = (streamId: string) => {
    ended.add(streamId);
    if (ended.size > keptEnded) ended.delete(ended.values().next().value!);
  };

  /** Ends the streams of the requests that `body`'s cancellations name. */
  const cancel = (sessionId: string, body: unknown) => {
    for (const m of messagesOf(body)) {
      if (!isSpecType.CancelledNotification(m) || m.params.requestId === undefined) continue;
      const key = idKey(m.params.requestId);
      const flight = flights.get(`${sessionId}\n${key}`);
      if (!flight) continue;
      flight.open.delete(key);
      flight.cancelled = true;
      settle(flight);
    }
  };

  return {
    /** `handle`'s answer to `body`, which a cancellation can end, even one that comes before it. */
    async serve(sessionId: string, transport: StreamCloser, body: unknown, handle: () => Promise<Response>) {
      const ids = messagesOf(body).flatMap((m) => (isJSONRPCRequest(m) ? [m.id] : []));
      const keys = ids.map((id) => `${sessionId}\n${idKey(id)}`);
      const flight: Flight = { ids, open: new Set(ids.map(idKey)), cancelled: false };
      for (const key of keys) flights.set(key, flight);
      const drop = () => {
        for (const key of keys) if (flights.get(key) === flight) flights.delete(key);
      };
      let response = await handle().catch((error: unknown) => {
        drop();
        throw error;
      });
      const source = response.body;
      if (ids.length > 0 && source && response.headers.get("content-type")?.startsWith("text/event-stream")) {
        response = new Response(watch(flight, source, drop, remember), response);
        flight.close = () => transport.closeSSEStream(ids[0]);
        // cancelled before it was handed out: it ends once what the transport wrote so far is read
        settle(flight);
      } else drop();
      if (response.ok) cancel(sessionId, body);
      return response;
    },

    holds: (sessionId: string, requestId: RequestId) => flights.has(`${sessionId}\n${idKey(requestId)}`),

    /** Closes the stream `streamId` of session `sessionId` if a request in flight here answers on it. */
    takeOver(sessionId: string, streamId: string) {
      const prefix = `${sessionId}\n`;
      for (const [key, flight] of flights)
        if (flight.streamId === streamId && key.startsWith(prefix)) return flight.close?.();
    },

    /** Whether `lastEventId` belongs to a stream that a cancellation ended. */
    ended(lastEventId: string) {
      const streamId = streamOfEventId(lastEventId);
      return streamId !== undefined && ended.has(streamId);
    },
  };
}
