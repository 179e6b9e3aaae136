/**
 * Stateful MCP sessions: each `initialize` gets its own SDK server and transport
 * (session-start.ts), an `Mcp-Session-Id` bound to the subject that initialized it, and a bounded
 * event store for resumable SSE. Sessions end on DELETE, on app close, or after sitting idle with
 * no open stream. At the limit, only a session idle for longer than a floor makes room; otherwise
 * the newcomer is refused, so a flood of `initialize` calls cannot push out sessions in use (the
 * bookkeeping is session-table.ts). A request's SSE stream ends when the client cancels the
 * request (request-streams.ts).
 *
 * With a `cluster` (several instances on Redis), a session is also kept in Redis: an instance that
 * gets a request for a session it does not hold revives it from the record (session-revival.ts),
 * the notification stream (GET) is served from Redis, DELETE ends the session on every instance,
 * and a cancellation reaches the instance that holds the request (session-cluster.ts). The flood
 * limits count the sessions each instance holds.
 *
 * Why ours: the SDK's transport serves one session; holding many, bounding them per subject and
 * serving them from any instance is left to the application.
 */
import { randomUUID } from "node:crypto";
import { ProtocolErrorCode, type AuthInfo, type RequestId } from "@modelcontextprotocol/server";
import { subjectOf } from "../../auth/subject.js";
import { createRequestStreams, type RequestStreams } from "./request-streams.js";
import { jsonRpcError, retryLater } from "../../json-rpc-error.js";
import { STREAM_ID } from "./session-records.js";
import {
  createRevival,
  createSessionStart,
  JSON_OR_SSE,
  type Revive,
  type Session,
  type SessionCluster,
} from "./session-start.js";
import { SessionTable, type Refusal } from "./session-table.js";
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
  /** Sessions kept in Redis, which every instance serves. */
  cluster?: SessionCluster;
};

export type Sessions = {
  /** Handles an `initialize` POST: a new session, a refusal at the limit, or the error the SDK gives. */
  open(req: Request, body: unknown, auth?: AuthInfo): Promise<Response>;
  /** Handles any request carrying an `Mcp-Session-Id`; only the session's own subject may use it. */
  handle(sessionId: string, req: Request, body?: unknown, auth?: AuthInfo): Promise<Response>;
  /** Sessions held here. */
  readonly size: number;
  close(): Promise<void>;
};

export function createSessions(options: SessionOptions): Sessions {
  const { idleMs, minIdleMs, onError, cluster } = options;
  const table = new SessionTable<Session>({ ...options, now: Date.now });
  const requests = createRequestStreams({
    // a request this instance does not hold may be in flight on another: the cancellation goes there
    elsewhere: cluster && ((id, requestId) => void cluster.records.cancelled(id, requestId).catch(onError)),
  });
  const close = async (session: Session) => {
    await session.transport.close().catch(onError);
  };
  const start = createSessionStart({
    build: options.build,
    onError,
    cluster,
    held: (id, session) => table.add(id, session),
    closed: (id, session) => void table.forget(id, session),
  });

  /** Makes room for one more session of `subject`, or says why there is none. */
  const makeRoom = (subject: string): Response | undefined => {
    const room = table.makeRoom(subject);
    for (const { id, session } of room.evicted) {
      void close(session);
      // and everywhere, unless another instance used it meanwhile: a flood of sessions made here
      // cannot leave more records in Redis than this instance holds
      cluster?.records.endIfIdle(id, minIdleMs).catch(onError);
    }
    return room.refused && noRoom(room.refused, options);
  };

  const sweep = setInterval(() => table.idle().forEach((session) => void close(session)), Math.min(idleMs, 60_000));
  sweep.unref();
  const unsignal = cluster && hearCluster({ cluster, table, requests, close, onError });
  const route = routeToSessions({
    table,
    requests,
    close,
    cluster,
    revive: cluster && createRevival({ records: cluster.records, start, makeRoom, close, onError }),
  });

  return {
    async open(req, body, auth) {
      const subject = subjectOf(auth);
      const refusal = makeRoom(subject);
      if (refusal) return refusal;
      const session = await start(subject, randomUUID);
      const response = await session.transport.handleRequest(req, { parsedBody: body, authInfo: auth });
      const id = session.transport.sessionId;
      if (id === undefined) await close(session);
      else if (cluster) {
        const init = (body as { params?: unknown }).params;
        await cluster.records.save(id, { subject, init }).catch(async (error: unknown) => {
          await close(session);
          throw error;
        });
      }
      return response;
    },
    handle: route,
    get size() {
      return table.size;
    },
    async close() {
      clearInterval(sweep);
      unsignal?.();
      await Promise.all(table.sessions().map(close));
    },
  };
}

type Routes = {
  table: SessionTable<Session>;
  requests: RequestStreams;
  close: (session: Session) => Promise<void>;
  cluster?: SessionCluster;
  revive?: Revive;
};

/** Sends a request that names a session to it: held here, revived from Redis, or none. */
function routeToSessions({ table, requests, close, cluster, revive }: Routes): Sessions["handle"] {
  /** The session held here; with a cluster, revived when another instance holds it, dropped when it ended. */
  const find = async (sessionId: string, subject: string, auth?: AuthInfo) => {
    const session = table.get(sessionId);
    if (!cluster || !revive) return session;
    if (session && !(await cluster.records.touch(sessionId))) {
      // ended on another instance, or expired
      table.forget(sessionId);
      void close(session);
    } else if (session) return session;
    return revive(sessionId, subject, auth);
  };

  return async (sessionId, req, body, auth) => {
    const subject = subjectOf(auth);
    if (cluster && req.method === "GET") return openClusterStream(cluster, requests, sessionId, subject, req);
    const session = await find(sessionId, subject, auth);
    if (session instanceof Response) return session;
    // another subject's session answers exactly as one that does not exist
    if (!session || session.subject !== subject) return notFound();
    table.use(sessionId);
    const lastEventId = req.method === "GET" ? req.headers.get("last-event-id") : null;
    if (lastEventId !== null && requests.ended(lastEventId)) return streamOver();
    const response = await requests.serve(sessionId, body, () =>
      session.transport.handleRequest(req, { ...(body === undefined ? {} : { parsedBody: body }), authInfo: auth }),
    );
    if (cluster && req.method === "DELETE" && response.ok) await cluster.records.end(sessionId);
    if (req.method !== "GET" || response.status !== 200) return response;
    // An open GET stream keeps the session alive however long it stays quiet.
    return watchBody(response, table.openStream(sessionId));
  };
}

/** The code the SDK uses for an unknown session. */
const SESSION_NOT_FOUND = -32001;

/** An unknown session; another subject's session answers exactly so. */
const notFound = (): Response =>
  jsonRpcError(
    404,
    SESSION_NOT_FOUND,
    "Session not found: it ended or never existed. Send initialize to start a new one.",
  );

/** A resume of a stream that a cancellation ended: SSE's "do not reconnect". */
const streamOver = (): Response => new Response(null, { status: 204 });

/** The refusal of a newcomer at a limit, with when to try again. */
function noRoom(
  { limit, waitSeconds }: Refusal,
  { maxSessions, maxSessionsPerSubject }: { maxSessions: number; maxSessionsPerSubject: number },
): Response {
  return limit === "subject"
    ? retryLater(
        429,
        `Too many sessions: this account already has ${maxSessionsPerSubject} open. ` +
          `End one you no longer use (DELETE /mcp with its Mcp-Session-Id), or try again in ${waitSeconds} s.`,
        waitSeconds,
      )
    : retryLater(
        503,
        `The server is at its limit of ${maxSessions} sessions, all in use. Try again in ${waitSeconds} s.`,
        waitSeconds,
      );
}

/** The code the SDK answers a GET that does not accept an event stream with. */
const NOT_ACCEPTABLE = -32000;

/** The session's notification stream, from Redis, for its own subject only. */
async function openClusterStream(
  { records, streams }: SessionCluster,
  requests: RequestStreams,
  sessionId: string,
  subject: string,
  req: Request,
): Promise<Response> {
  if ((await records.load(sessionId, subject)) === undefined) return notFound();
  if (!req.headers.get("accept")?.includes("text/event-stream")) {
    return jsonRpcError(406, NOT_ACCEPTABLE, "Not Acceptable: the notification stream is text/event-stream.");
  }
  const lastEventId = req.headers.get("last-event-id") ?? undefined;
  if (lastEventId !== undefined && requests.ended(lastEventId)) return streamOver();
  if (lastEventId !== undefined && !STREAM_ID.test(lastEventId)) {
    return jsonRpcError(
      400,
      ProtocolErrorCode.InvalidRequest,
      "Last-Event-ID is not an event id of this server: reconnect without it to receive what comes next.",
    );
  }
  return streams.open(sessionId, subject, lastEventId);
}

type ClusterSignalOptions = {
  cluster: SessionCluster;
  table: SessionTable<Session>;
  requests: RequestStreams;
  close: (session: Session) => Promise<void>;
  onError: (error: Error) => void;
};

/** Hears the other instances' signals about sessions held here; returns the unsubscribe. */
function hearCluster({ cluster, table, requests, close, onError }: ClusterSignalOptions): () => void {
  return cluster.records.onSignal((signal) => {
    const session = table.get(signal.sessionId);
    if (!session) return;
    if (signal.kind === "ended") {
      table.forget(signal.sessionId);
      void close(session);
    } else if (signal.kind === "cancelled" && requests.holds(signal.sessionId, signal.requestId)) {
      cancelHere(requests, signal.sessionId, session, signal.requestId).catch(onError);
    }
  });
}

/** Hands a cancellation sent to another instance to the session's transport here, as if sent here. */
function cancelHere(requests: RequestStreams, sessionId: string, session: Session, requestId: RequestId) {
  const message = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } };
  const req = new Request("http://localhost/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: JSON_OR_SSE, "mcp-session-id": sessionId },
    body: JSON.stringify(message),
  });
  return requests.serve(sessionId, message, () => session.transport.handleRequest(req, { parsedBody: message }));
}
