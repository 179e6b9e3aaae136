/**
 * The SSE answers of sessions' requests in flight, so that `notifications/cancelled` ends the
 * cancelled request's stream at once (the spec sends no response for it, and the transport closes
 * a POST's stream only when every request on it is answered). A client that then resumes that
 * stream from its Last-Event-ID is told it is over (204, SSE's "do not reconnect").
 *
 * Why ours: the SDK's transport keeps a cancelled request's SSE stream open.
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  isSpecType,
  type RequestId,
} from "@modelcontextprotocol/server";
import { streamOfEventId } from "./event-store.js";

/** One POST's stream: its requests not yet answered nor cancelled, and how to end it. */
type Flight = {
  keys: string[];
  open: Set<string>;
  cancelled: boolean;
  streamId?: string;
  end?: () => void;
  /** Ends the stream if it was cancelled and none of its requests is still to be answered. */
  settle: () => void;
};

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

/** `response` with a body that passes `source` on, reads what it tells, and `flight.end` can end. */
function endable(flight: Flight, response: Response, source: ReadableStream<Uint8Array>, finish: () => void): Response {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let over = false;
  const done = () => {
    if (over) return;
    over = true;
    finish();
  };
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: async (reason) => {
      done();
      await reader.cancel(reason);
    },
  });
  flight.end = () => {
    if (over) return;
    done();
    controller.close();
    // the transport's own cancel releases the stream and its keep-alive timer
    reader.cancel().catch(() => {});
  };
  // read as the transport writes (it queues without bound anyway), so a stream's id is known as
  // soon as its first event is written, whether or not the client is reading yet
  void (async () => {
    try {
      for (let chunk = await reader.read(); !chunk.done && !over; chunk = await reader.read()) {
        controller.enqueue(chunk.value);
        if (flight.streamId !== undefined && flight.keys.length === 1) continue;
        const text = decoder.decode(chunk.value);
        flight.streamId ??= streamOfEventId(EVENT_ID.exec(text)?.[1] ?? "");
        // one request's stream is closed by the transport once answered; a batch's waits for every
        // answer, a cancelled request's never comes: its others' answers are counted here
        const id = flight.keys.length > 1 ? answered(text) : undefined;
        if (id === undefined) continue;
        flight.open.delete(idKey(id));
        flight.settle();
      }
      if (!over) controller.close();
    } catch (error) {
      if (!over) controller.error(error);
    } finally {
      done();
    }
  })();
  // cancelled before it was handed out: it ends once what the transport wrote so far is passed on
  if (flight.cancelled) setImmediate(() => flight.settle());
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export function createRequestStreams({ keptEnded = 10_000 } = {}) {
  const flights = new Map<string, Flight>();
  /** Streams a cancellation ended, the oldest forgotten first past `keptEnded`. */
  const ended = new Set<string>();

  const settle = (flight: Flight) => {
    if (!flight.cancelled || flight.open.size > 0 || flight.end === undefined) return;
    if (flight.streamId !== undefined) ended.add(flight.streamId);
    if (ended.size > keptEnded) ended.delete(ended.values().next().value!);
    flight.end();
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
      flight.settle();
    }
  };

  return {
    /** `handle`'s answer to `body`, which a cancellation can end, even one that comes before it. */
    async serve(sessionId: string, body: unknown, handle: () => Promise<Response>): Promise<Response> {
      const ids = messagesOf(body).flatMap((m) => (isJSONRPCRequest(m) ? [idKey(m.id)] : []));
      const keys = ids.map((id) => `${sessionId}\n${id}`);
      const flight: Flight = { keys, open: new Set(ids), cancelled: false, settle: () => settle(flight) };
      for (const key of keys) flights.set(key, flight);
      const drop = () => {
        for (const key of keys) if (flights.get(key) === flight) flights.delete(key);
      };
      let response: Response;
      try {
        response = await handle();
      } catch (error) {
        drop();
        throw error;
      }
      const source = response.body;
      if (keys.length > 0 && source && response.headers.get("content-type")?.startsWith("text/event-stream"))
        response = endable(flight, response, source, drop);
      else drop();
      if (response.ok) cancel(sessionId, body);
      return response;
    },

    /** Whether the request `requestId` of session `sessionId` is in flight here. */
    holds: (sessionId: string, requestId: RequestId) => flights.has(`${sessionId}\n${idKey(requestId)}`),

    /** The request in flight of session `sessionId` whose answer streams as `streamId`, if any. */
    requestOn(sessionId: string, streamId: string): RequestId | undefined {
      const prefix = `${sessionId}\n`;
      for (const [key, flight] of flights)
        if (flight.streamId === streamId && key.startsWith(prefix))
          return JSON.parse(key.slice(prefix.length)) as RequestId;
      return undefined;
    },

    /** Whether `lastEventId` belongs to a stream that a cancellation ended. */
    ended(lastEventId: string) {
      const streamId = streamOfEventId(lastEventId);
      return streamId !== undefined && ended.has(streamId);
    },
  };
}
