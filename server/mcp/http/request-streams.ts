/**
 * The SSE answers of sessions' requests in flight, so that `notifications/cancelled` ends the
 * cancelled request's stream at once: the spec sends no response for it, and the SDK's transport,
 * which closes a POST's stream when every request on it is answered, would hold it open forever.
 * A client that then resumes that stream from its Last-Event-ID is told it is over (204, SSE's
 * "do not reconnect"), not handed an empty stream that stays open.
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

type Answer = {
  /** The answer to hand out: an SSE one can now be ended by a cancellation; anything else passes. */
  attach(response: Response): Response;
  /** There is no answer (the transport threw). */
  drop(): void;
};

/** One POST's stream: its requests not yet answered nor cancelled, and how to end it. */
type Flight = {
  keys: string[];
  open: Set<string>;
  cancelled: boolean;
  streamId?: string;
  end?: () => void;
};

/** JSON from text that may not be JSON (or may be missing): the value, or undefined. */
function parseJson(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

const messagesOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);
const idKey = (id: RequestId) => JSON.stringify(id);
const EVENT_ID = /^id: (.+)$/m;
const DATA = /^data: (.*)$/m;

type RequestStreamOptions = {
  /** Streams ended by cancellation remembered (the oldest forgotten first). */
  keptEnded?: number;
};

/** The ids of streams a cancellation ended, the oldest forgotten first past `kept`. */
class EndedStreams {
  readonly #ids = new Set<string>();
  readonly #kept: number;
  constructor(kept: number) {
    this.#kept = kept;
  }
  add(streamId: string): void {
    this.#ids.add(streamId);
    if (this.#ids.size > this.#kept) this.#ids.delete(this.#ids.values().next().value!);
  }
  has(streamId: string): boolean {
    return this.#ids.has(streamId);
  }
}

/** Ends a cancelled flight's stream once none of its requests is still to be answered. */
function settle(flight: Flight, ended: EndedStreams): void {
  if (!flight.cancelled || flight.open.size > 0 || flight.end === undefined) return;
  if (flight.streamId !== undefined) ended.add(flight.streamId);
  flight.end();
}

/** What one SSE chunk (one event, as the SDK writes them) tells: the stream's id, a batch's answers. */
function see(flight: Flight, text: string, ended: EndedStreams): void {
  const eventId = EVENT_ID.exec(text)?.[1];
  if (eventId !== undefined) flight.streamId ??= streamOfEventId(eventId);
  // one request's stream is closed by the transport once answered; a batch's waits for every
  // answer, a cancelled request's never comes: its others' answers are counted here
  if (flight.keys.length === 1) return;
  const message = parseJson(DATA.exec(text)?.[1]);
  if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
    flight.open.delete(idKey(message.id));
    settle(flight, ended);
  }
}

/** `response` with a body that passes `source` on and that `flight.end` can end at any moment. */
function endable(
  flight: Flight,
  response: Response,
  source: ReadableStream<Uint8Array>,
  { drop, ended }: { drop: () => void; ended: EndedStreams },
): Response {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let over = false;
  const finish = () => {
    if (over) return;
    over = true;
    drop();
  };
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: async (reason) => {
      finish();
      await reader.cancel(reason);
    },
  });
  flight.end = () => {
    if (over) return;
    finish();
    controller.close();
    // the transport's own cancel releases the stream and its keep-alive timer
    reader.cancel().catch(() => {});
  };
  // read as the transport writes (it queues without bound anyway), so a stream's id is known
  // as soon as its first event is written, whether or not the client is reading yet
  void (async () => {
    try {
      for (let chunk = await reader.read(); !chunk.done && !over; chunk = await reader.read()) {
        controller.enqueue(chunk.value);
        if (flight.streamId === undefined || flight.keys.length > 1) see(flight, decoder.decode(chunk.value), ended);
      }
      if (!over) controller.close();
    } catch (error) {
      if (!over) controller.error(error);
    } finally {
      finish();
    }
  })();
  // cancelled before it was handed out: it ends once what the transport wrote so far is passed on
  if (flight.cancelled) setImmediate(() => settle(flight, ended));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export function createRequestStreams({ keptEnded = 10_000 }: RequestStreamOptions = {}) {
  const flights = new Map<string, Flight>();
  const ended = new EndedStreams(keptEnded);

  const begin = (sessionId: string, body: unknown): Answer => {
    const ids = messagesOf(body).flatMap((m) => (isJSONRPCRequest(m) ? [idKey(m.id)] : []));
    if (ids.length === 0) return { attach: (response) => response, drop: () => {} };
    const flight: Flight = { keys: ids.map((id) => `${sessionId}\n${id}`), open: new Set(ids), cancelled: false };
    for (const key of flight.keys) flights.set(key, flight);
    const drop = () => {
      for (const key of flight.keys) if (flights.get(key) === flight) flights.delete(key);
    };
    return {
      attach(response) {
        const source = response.body;
        if (!source || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
          drop();
          return response;
        }
        return endable(flight, response, source, { drop, ended });
      },
      drop,
    };
  };

  const cancel = (sessionId: string, body: unknown) => {
    for (const m of messagesOf(body)) {
      const id = isSpecType.CancelledNotification(m) ? m.params.requestId : undefined;
      if (id === undefined) continue;
      const flight = flights.get(`${sessionId}\n${idKey(id)}`);
      if (!flight) continue;
      flight.open.delete(idKey(id));
      flight.cancelled = true;
      settle(flight, ended);
    }
  };

  return {
    /**
     * Hands the POST body `body` of session `sessionId` to `handle` (the transport) and returns its
     * answer: an SSE one a cancellation can end. Once the transport took a cancellation in `body`,
     * the stream of the request it names ends (requests are noted before `handle` is called, so a
     * cancellation that comes before their answer is handed out is not lost).
     */
    async serve(sessionId: string, body: unknown, handle: () => Promise<Response>): Promise<Response> {
      const answer = begin(sessionId, body);
      let response: Response;
      try {
        response = answer.attach(await handle());
      } catch (error) {
        answer.drop();
        throw error;
      }
      if (response.ok) cancel(sessionId, body);
      return response;
    },

    /** Whether the request `requestId` of session `sessionId` is in flight here. */
    holds: (sessionId: string, requestId: RequestId) => flights.has(`${sessionId}\n${idKey(requestId)}`),

    /** The request in flight of session `sessionId` whose answer streams as `streamId`, if any. */
    requestOn(sessionId: string, streamId: string): RequestId | undefined {
      const prefix = `${sessionId}\n`;
      for (const [key, flight] of flights) {
        if (flight.streamId === streamId && key.startsWith(prefix))
          return JSON.parse(key.slice(prefix.length)) as RequestId;
      }
      return undefined;
    },

    /** Whether `lastEventId` belongs to a stream that a cancellation ended. */
    ended(lastEventId: string) {
      const streamId = streamOfEventId(lastEventId);
      return streamId !== undefined && ended.has(streamId);
    },
  };
}
