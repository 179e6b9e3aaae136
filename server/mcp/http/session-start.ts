/**
 * One stateful session's server and transport: a fresh SDK server (never one shared by clients),
 * a transport with a resumable event store drawn from one byte budget, and, for sessions kept in
 * Redis, the hooks that keep the session's choices (subscriptions, log level) in its record.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
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
