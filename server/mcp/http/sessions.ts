/**
 * Stateful MCP sessions: each `initialize` gets its own SDK server and transport with a bounded
 * event store for resumable SSE, and an `Mcp-Session-Id` of the form `<instance tag>.<uuid>`, bound
 * to the subject that initialized it. A session lives only in the process that opened it: nginx
 * routes a request to the instance its id's tag names (deploy/nginx.conf), and an id this process
 * does not hold (its instance died, or the session ended) answers 404, upon which the client
 * initializes again. Sessions end on DELETE, on app close, or after sitting idle with no open
 * stream. At the limit, only a session idle for longer than a floor makes room; otherwise the
 * newcomer is refused, so a flood of `initialize` calls cannot push out sessions in use (the
 * bookkeeping is session-table.ts). A request's SSE stream ends when the client cancels the request
 * (request-streams.ts). A resume (GET with Last-Event-ID) takes its stream over: the client gave up
 * the old connection, which may not look closed here yet (behind a proxy, not for a while), and the
 * SDK's transport would refuse the resume with 409 until it does.
 *
 * Why ours: the SDK's transport serves one session; holding many and bounding them per subject is
 * left to the application.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type AuthInfo } from "@modelcontextprotocol/server";
import { subjectOf } from "../../auth/subject.js";
import { createEventBudget } from "./event-budget.js";
import { createEventStore, streamOfEventId } from "./event-store.js";
import { guardRequests } from "./request-guard.js";
import { createRequestStreams } from "./request-streams.js";
import { jsonRpcError, retryLater } from "../../json-rpc-error.js";
import { SessionTable, type Refusal } from "./session-table.js";
import type { BuiltServer } from "../server.js";
import { watchBody } from "../../http/watch-body.js";

export type SessionOptions = {
  build: () => BuiltServer;
  /** The tag that starts every session id made here, which nginx routes by; random by default. */
  instanceId?: string;
  /** A session with no request and no open stream for this long is closed. */
  idleMs: number;
  /** Past this many, the least recently used session idle for over `minIdleMs` is closed to make room. */
  maxSessions: number;
  /** Sessions used more recently than this are never closed to make room. */
  minIdleMs: number;
  /** Past this many sessions of one subject, that subject's new ones are refused (or its idle ones closed). */
  maxSessionsPerSubject: number;
  onError: (error: Error) => void;
};

type Session = {
  transport: WebStandardStreamableHTTPServerTransport;
  built: BuiltServer;
  subject: string;
};

export function createSessions(options: SessionOptions) {
  const { idleMs, onError, instanceId = randomBytes(4).toString("hex") } = options;
  const table = new SessionTable<Session>({ ...options, now: Date.now });
  const requests = createRequestStreams();
  const eventBudget = createEventBudget();
  const close = async (session: Session) => {
    await session.transport.close().catch(onError);
  };

  /** A fresh server and transport for `subject`, held once the client's `initialize` is handled. */
  const start = async (subject: string): Promise<Session> => {
    const built = options.build();
    built.state.subject = subject;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => `${instanceId}.${randomUUID()}`,
      eventStore: createEventStore({ budget: eventBudget }),
      onsessioninitialized: (id) => {
        built.state.sessionId = id;
        table.add(id, session);
      },
    });
    const session: Session = { transport, built, subject };
    transport.onerror = onError;
    built.server.onclose = () => {
      if (built.state.sessionId !== undefined) table.forget(built.state.sessionId, session);
      built.dispose();
    };
    await built.server.connect(transport);
    guardRequests(transport);
    return session;
  };

  /** Ends the stream that `lastEventId` resumes, if it is still open here. */
  const takeOver = (sessionId: string, transport: WebStandardStreamableHTTPServerTransport, lastEventId: string) => {
    const streamId = streamOfEventId(lastEventId);
    if (streamId === STANDALONE_STREAM) return transport.closeStandaloneSSEStream();
    const requestId = streamId === undefined ? undefined : requests.requestOn(sessionId, streamId);
    if (requestId !== undefined) transport.closeSSEStream(requestId);
  };

  const sweep = setInterval(() => table.idle().forEach((session) => void close(session)), Math.min(idleMs, 60_000));
  sweep.unref();

  return {
    /** Handles an `initialize` POST: a new session, a refusal at the limit, or the error the SDK gives. */
    async open(req: Request, body: unknown, auth?: AuthInfo) {
      const subject = subjectOf(auth);
      const room = table.makeRoom(subject);
      for (const { session } of room.evicted) void close(session);
      if (room.refused) return noRoom(room.refused, options);
      const session = await start(subject);
      const response = await session.transport.handleRequest(req, { parsedBody: body, authInfo: auth });
      if (session.transport.sessionId === undefined) await close(session);
      return response;
    },
    /** Handles any request carrying an `Mcp-Session-Id`; only the session's own subject may use it. */
    async handle(sessionId: string, req: Request, body?: unknown, auth?: AuthInfo) {
      const session = table.get(sessionId);
      // another subject's session answers exactly as one that does not exist
      if (!session || session.subject !== subjectOf(auth)) return notFound();
      table.use(sessionId);
      const lastEventId = req.method === "GET" ? req.headers.get("last-event-id") : null;
      if (lastEventId !== null) {
        if (requests.ended(lastEventId)) return streamOver();
        takeOver(sessionId, session.transport, lastEventId);
      }
      const response = await requests.serve(sessionId, body, () =>
        session.transport.handleRequest(req, { ...(body === undefined ? {} : { parsedBody: body }), authInfo: auth }),
      );
      if (req.method !== "GET" || response.status !== 200) return response;
      // An open GET stream keeps the session alive however long it stays quiet.
      return watchBody(response, table.openStream(sessionId));
    },
    /** Sessions held here. */
    get size() {
      return table.size;
    },
    async close() {
      clearInterval(sweep);
      await Promise.all(table.sessions().map(close));
    },
  };
}

/** The SDK's id for a session's GET stream. */
const STANDALONE_STREAM = "_GET_stream";

/** The code the SDK uses for an unknown session. */
const SESSION_NOT_FOUND = -32001;

/** An unknown session; another subject's session answers exactly so. */
const notFound = (): Response =>
  jsonRpcError(
    404,
    SESSION_NOT_FOUND,
    "Session not found: it ended, its server stopped, or it never existed. Send initialize to start a new one.",
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
