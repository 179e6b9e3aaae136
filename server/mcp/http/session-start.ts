/**
 * One stateful session's server and transport: a fresh SDK server (never one shared by clients),
 * a transport with a resumable event store drawn from one byte budget, and, for sessions kept in
 * Redis, the hooks that keep the session's choices (subscriptions, log level) in its record. A
 * session kept in Redis that this instance does not hold is revived here: its record loaded, room
 * made, and a server and transport initialized again with the client's own `initialize` parameters;
 * requests that arrive together for the same session share one revival.
 *
 * Why ours: the SDK's transport takes one session id and one event store, and never re-initializes.
 */
import { WebStandardStreamableHTTPServerTransport, type AuthInfo } from "@modelcontextprotocol/server";
import { createEventBudget } from "./event-budget.js";
import { createEventStore } from "./event-store.js";
import { guardRequests } from "./request-guard.js";
import type { SessionRecords } from "./session-records.js";
import type { SessionStreams } from "./session-streams.js";
import type { BuiltServer } from "../server.js";

export type Session = {
  transport: WebStandardStreamableHTTPServerTransport;
  built: BuiltServer;
  subject: string;
};

/** Where sessions are kept in Redis: their records, and their notification streams served from there. */
export type SessionCluster = { records: SessionRecords; streams: SessionStreams };

export type SessionStartOptions = {
  build: () => BuiltServer;
  onError: (error: Error) => void;
  cluster?: SessionCluster;
  /** Hears a session initialized as `id`: from then on it is held. */
  held: (id: string, session: Session) => void;
  /** Hears a session's server closed: it is no longer held. */
  closed: (id: string, session: Session) => void;
};

/** Starts the session of `subject` whose id `newId` gives; it is held once the client's `initialize` is handled. */
export type StartSession = (subject: string, newId: () => string) => Promise<Session>;

export function createSessionStart({ build, onError, cluster, held, closed }: SessionStartOptions): StartSession {
  const eventBudget = createEventBudget();
  return async (subject, newId) => {
    const built = build();
    built.state.subject = subject;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: newId,
      eventStore: createEventStore({ budget: eventBudget }),
      onsessioninitialized: (id) => {
        built.state.sessionId = id;
        held(id, session);
      },
    });
    const session: Session = { transport, built, subject };
    if (cluster) built.state.cluster = keptInRecord(cluster, () => built.state.sessionId!);
    transport.onerror = onError;
    built.server.onclose = () => {
      if (built.state.sessionId !== undefined) closed(built.state.sessionId, session);
      built.dispose();
    };
    await built.server.connect(transport);
    guardRequests(transport);
    return session;
  };
}

/** A session's choices kept in its record, where any instance that serves its stream reads them. */
function keptInRecord({ records, streams }: SessionCluster, id: () => string) {
  return {
    async subscribe(uri: string, jobId?: string) {
      await records.subscribe(id(), uri, jobId);
      if (jobId !== undefined) streams.follow(id(), jobId);
    },
    unsubscribe: (uri: string) => records.unsubscribe(id(), uri),
    setLevel: (level: Parameters<SessionRecords["setLevel"]>[1]) => records.setLevel(id(), level),
  };
}

/** What a request made here for a client accepts, as the client's own would. */
export const JSON_OR_SSE = "application/json, text/event-stream";

export type RevivalOptions = {
  records: SessionRecords;
  start: StartSession;
  /** Room for one more session of `subject`, or the refusal to answer with. */
  makeRoom: (subject: string) => Response | undefined;
  close: (session: Session) => Promise<void>;
  onError: (error: Error) => void;
};

/** The revived session, a refusal (no room), or undefined when there is no such session of `subject`. */
export type Revive = (sessionId: string, subject: string, auth?: AuthInfo) => Promise<Session | Response | undefined>;

export function createRevival({ records, start, makeRoom, close, onError }: RevivalOptions): Revive {
  const revive: Revive = async (sessionId, subject, auth) => {
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
    await close(session);
    onError(new Error(`session ${sessionId} could not be revived: ${reply.status}`));
    return undefined;
  };

  const inFlight = new Map<string, ReturnType<Revive>>();
  return (sessionId, subject, auth) => {
    const key = `${subject}\n${sessionId}`;
    let reviving = inFlight.get(key);
    if (reviving === undefined) {
      reviving = revive(sessionId, subject, auth).finally(() => inFlight.delete(key));
      inFlight.set(key, reviving);
    }
    return reviving;
  };
}
