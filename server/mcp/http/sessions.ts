/**
 * Stateful MCP sessions: each `initialize` gets its own SDK server and transport (never one server
 * shared by clients), an `Mcp-Session-Id` bound to the subject that initialized it, and a bounded
 * event store for resumable SSE. Sessions end on DELETE, on app close, or after sitting idle with
 * no open stream. At the limit, only a session idle for longer than a floor makes room; otherwise
 * the newcomer is refused, so a flood of `initialize` calls cannot push out sessions in use.
 * A request's SSE stream ends when the client cancels the request (request-streams.ts).
 *
 * With `shared` (several instances on Redis), a session is also kept in Redis: an instance that
 * gets a request for a session it does not hold revives it from the record (a server and transport
 * initialized again with the client's own `initialize`), the notification stream (GET) is served
 * from Redis by `SessionStreams`, DELETE ends the session on every instance, and a cancellation
 * reaches the instance that holds the request. The flood limits count the sessions each instance
 * holds.
 */
import { randomUUID } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createEventBudget } from "./event-budget.js";
import { ErrorCode, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { subjectOf } from "../../auth/subject.js";
import { createEventStore } from "./event-store.js";
import { jsonRpcError, retryLater } from "./http-body.js";
import { guardRequests } from "./request-guard.js";
import { createRequestStreams } from "./request-streams.js";
import { STREAM_ID, type SessionRecords } from "./session-records.js";
import type { SessionStreams } from "./session-streams.js";
import type { BuiltServer } from "../server.js";
import { watchBody } from "./watch-body.js";

export type SessionOptions = {
  build: () => BuiltServer;
  /** A session with no request and no open stream for this long is closed. */
  idleMs: number;
  /** Past this many, the least recently used session idle for over `minIdleMs` is closed to make room. */
  maxSessions: number;
  /** Sessions used more recently than this are never closed to make room. */
  minIdleMs: number;
  /** Past this many sessions of one subject, that subject's new ones are refused (or its idle ones closed). */
  maxSessionsPerSubject: number;
  onError: (error: Error) => void;
  /** Sessions shared by several instances. */
  shared?: { records: SessionRecords; streams: SessionStreams };
};

/** The code the SDK uses for an unknown session. */
const SESSION_NOT_FOUND = -32001;
/** The code the SDK answers a GET that does not accept an event stream with. */
const NOT_ACCEPTABLE = -32000;

type Session = {
  transport: WebStandardStreamableHTTPServerTransport;
  built: BuiltServer;
  subject: string;
  lastSeen: number;
  openStreams: number;
};

export type Sessions = {
  /** Handles an `initialize` POST: a new session, a refusal at the limit, or the error the SDK gives. */
  open(req: Request, body: unknown, auth?: AuthInfo): Promise<Response>;
  /** Handles any request carrying an `Mcp-Session-Id`; only the session's own subject may use it. */
  handle(sessionId: string, req: Request, body?: unknown, auth?: AuthInfo): Promise<Response>;
  readonly size: number;
  close(): Promise<void>;
};

/** What a request made here for a client accepts, as the client's own would. */
const JSON_OR_SSE = "application/json, text/event-stream";

/** A resume of a stream that a cancellation ended: SSE's "do not reconnect". */
const streamOver = () => new Response(null, { status: 204 });

const notFound = () =>
  jsonRpcError(
    404,
    SESSION_NOT_FOUND,
    "Session not found: it ended or never existed. Send initialize to start a new one.",
  );

export function createSessions(options: SessionOptions): Sessions {
  const { build, idleMs, maxSessions, minIdleMs, maxSessionsPerSubject, onError, shared } = options;
  // Map order is least recently used first: every request moves its session to the end.
  const sessions = new Map<string, Session>();
  const eventBudget = createEventBudget();
  const perSubject = new Map<string, number>();
  const requests = createRequestStreams({
    // a request this instance does not hold may be in flight on another: the cancellation goes there
    elsewhere: shared && ((id, requestId) => void shared.records.cancelled(id, requestId).catch(onError)),
  });

  const closeSession = async (session: Session) => {
    await session.transport.close().catch(onError);
  };
  const forget = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    const count = (perSubject.get(session.subject) ?? 1) - 1;
    if (count > 0) perSubject.set(session.subject, count);
    else perSubject.delete(session.subject);
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const session of sessions.values()) {
        if (session.openStreams === 0 && now - session.lastSeen > idleMs) void closeSession(session);
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  /**
   * Closes the least recently used session (of `subject`, when given) that has no open stream and
   * has been idle past the floor. Returns 0 when it did, else the seconds until one could be.
   */
  const evict = (subject?: string): number => {
    const now = Date.now();
    let waitMs = minIdleMs;
    for (const [id, session] of sessions) {
      if (session.openStreams > 0 || (subject !== undefined && session.subject !== subject)) continue;
      const idle = now - session.lastSeen;
      if (idle > minIdleMs) {
        forget(id);
        void closeSession(session);
        // and everywhere, unless another instance used it meanwhile: a flood of sessions made here
        // cannot leave more records in Redis than this instance holds
        shared?.records.endIfIdle(id, minIdleMs).catch(onError);
        return 0;
      }
      // least recently used first: the first candidate is the first to pass the floor
      waitMs = minIdleMs - idle;
      break;
    }
    return Math.max(1, Math.ceil(waitMs / 1000));
  };

  /** Makes room for one more session of `subject`, or says why there is none. */
  const makeRoom = (subject: string): Response | undefined => {
    if ((perSubject.get(subject) ?? 0) >= maxSessionsPerSubject) {
      const wait = evict(subject);
      if (wait > 0) {
        return retryLater(
          429,
          `Too many sessions: this account already has ${maxSessionsPerSubject} open. ` +
            `End one you no longer use (DELETE /mcp with its Mcp-Session-Id), or try again in ${wait} s.`,
          wait,
        );
      }
    }
    if (sessions.size >= maxSessions) {
      const wait = evict();
      if (wait > 0) {
        return retryLater(
          503,
          `The server is at its limit of ${maxSessions} sessions, all in use. Try again in ${wait} s.`,
          wait,
        );
      }
    }
    return undefined;
  };

  /** A server and transport for a session of `subject` whose id `newId` gives, held here once initialized. */
  const start = async (subject: string, newId: () => string): Promise<Session> => {
    const built = build();
    built.state.subject = subject;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: newId,
      eventStore: createEventStore({ budget: eventBudget }),
      onsessioninitialized: (id) => {
        built.state.sessionId = id;
        sessions.set(id, session);
        perSubject.set(subject, (perSubject.get(subject) ?? 0) + 1);
      },
    });
    const session: Session = { transport, built, subject, lastSeen: Date.now(), openStreams: 0 };
    if (shared) {
      const { records, streams } = shared;
      const id = () => built.state.sessionId!;
      built.state.shared = {
        async subscribe(uri, jobId) {
          await records.subscribe(id(), uri, jobId);
          if (jobId !== undefined) streams.follow(id(), jobId);
        },
        unsubscribe: (uri) => records.unsubscribe(id(), uri),
        setLevel: (level) => records.setLevel(id(), level),
      };
    }
    transport.onerror = onError;
    built.server.onclose = () => {
      if (built.state.sessionId !== undefined && sessions.get(built.state.sessionId) === session) {
        forget(built.state.sessionId);
      }
      built.dispose();
    };
    await built.server.connect(transport);
    guardRequests(transport);
    return session;
  };

  const revivals = new Map<string, Promise<Session | Response | undefined>>();
  /** Holds here a session another instance opened: initialized again with the client's own parameters. */
  const revive = async (
    records: SessionRecords,
    sessionId: string,
    subject: string,
    auth: AuthInfo | undefined,
  ): Promise<Session | Response | undefined> => {
    const record = await records.load(sessionId, subject);
    if (record === undefined) return undefined;
    const refusal = makeRoom(subject);
    if (refusal) return refusal;
    const session = await start(subject, () => sessionId);
    const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: record.init };
    const reply = await session.transport.handleRequest(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: JSON_OR_SSE },
        body: JSON.stringify(initialize),
      }),
      { parsedBody: initialize, authInfo: auth },
    );
    await reply.text();
    if (session.transport.sessionId === sessionId) return session;
    await closeSession(session);
    onError(new Error(`session ${sessionId} could not be revived: ${reply.status}`));
    return undefined;
  };

  const openStream = async (
    { records, streams }: NonNullable<SessionOptions["shared"]>,
    sessionId: string,
    subject: string,
    req: Request,
  ): Promise<Response> => {
    if ((await records.load(sessionId, subject)) === undefined) return notFound();
    if (!req.headers.get("accept")?.includes("text/event-stream")) {
      return jsonRpcError(406, NOT_ACCEPTABLE, "Not Acceptable: the notification stream is text/event-stream.");
    }
    const lastEventId = req.headers.get("last-event-id") ?? undefined;
    if (lastEventId !== undefined && requests.ended(lastEventId)) return streamOver();
    if (lastEventId !== undefined && !STREAM_ID.test(lastEventId)) {
      return jsonRpcError(
        400,
        ErrorCode.InvalidRequest,
        "Last-Event-ID is not an event id of this server: reconnect without it to receive what comes next.",
      );
    }
    return streams.open(sessionId, subject, lastEventId);
  };

  /** Hands a cancellation sent to another instance to the session's transport here, as if sent here. */
  const cancelHere = (sessionId: string, session: Session, requestId: RequestId) => {
    const message = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } };
    const req = new Request("http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: JSON_OR_SSE, "mcp-session-id": sessionId },
      body: JSON.stringify(message),
    });
    return requests.serve(sessionId, message, () => session.transport.handleRequest(req, { parsedBody: message }));
  };

  // a session ended on another instance ends here too; a request held here is cancelled here
  const unsignal = shared?.records.onSignal((signal) => {
    const session = sessions.get(signal.sessionId);
    if (!session) return;
    if (signal.kind === "ended") {
      forget(signal.sessionId);
      void closeSession(session);
    } else if (signal.kind === "cancelled" && requests.holds(signal.sessionId, signal.requestId)) {
      cancelHere(signal.sessionId, session, signal.requestId).catch(onError);
    }
  });

  return {
    async open(req, body, auth) {
      const subject = subjectOf(auth);
      const refusal = makeRoom(subject);
      if (refusal) return refusal;
      const session = await start(subject, randomUUID);
      const response = await session.transport.handleRequest(req, { parsedBody: body, authInfo: auth });
      const id = session.transport.sessionId;
      if (id === undefined) await closeSession(session);
      else if (shared) {
        const init = (body as { params?: unknown }).params;
        await shared.records.save(id, { subject, init }).catch(async (error: unknown) => {
          await closeSession(session);
          throw error;
        });
      }
      return response;
    },

    async handle(sessionId, req, body, auth) {
      const subject = subjectOf(auth);
      if (shared && req.method === "GET") return openStream(shared, sessionId, subject, req);
      let session = sessions.get(sessionId);
      if (shared) {
        if (session && !(await shared.records.touch(sessionId))) {
          // ended on another instance, or expired
          forget(sessionId);
          void closeSession(session);
          session = undefined;
        }
        if (!session) {
          // requests that arrive together for the same session share one revival
          const key = `${subject}\n${sessionId}`;
          let reviving = revivals.get(key);
          if (reviving === undefined) {
            reviving = revive(shared.records, sessionId, subject, auth).finally(() => revivals.delete(key));
            revivals.set(key, reviving);
          }
          const revived = await reviving;
          if (revived instanceof Response) return revived;
          session = revived;
        }
      }
      // another subject's session answers exactly as one that does not exist
      if (!session || session.subject !== subject) return notFound();
      sessions.delete(sessionId);
      sessions.set(sessionId, session);
      session.lastSeen = Date.now();
      const lastEventId = req.method === "GET" ? req.headers.get("last-event-id") : null;
      if (lastEventId !== null && requests.ended(lastEventId)) return streamOver();
      const transport = session.transport;
      const response = await requests.serve(sessionId, body, () =>
        transport.handleRequest(req, { ...(body === undefined ? {} : { parsedBody: body }), authInfo: auth }),
      );
      if (shared && req.method === "DELETE" && response.ok) await shared.records.end(sessionId);
      if (req.method !== "GET" || response.status !== 200) return response;
      // An open GET stream keeps the session alive however long it stays quiet.
      session.openStreams++;
      return watchBody(response, () => {
        session.openStreams--;
        session.lastSeen = Date.now();
      });
    },

    get size() {
      return sessions.size;
    },

    async close() {
      clearInterval(sweep);
      unsignal?.();
      await Promise.all([...sessions.values()].map(closeSession));
    },
  };
}
