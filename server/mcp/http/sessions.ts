/**
 * Stateful MCP sessions: each `initialize` gets its own SDK server and transport (never one server
 * shared by clients), an `Mcp-Session-Id`, and a bounded event store for resumable SSE. Sessions end
 * on DELETE, on app close, or after sitting idle with no open stream.
 */
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createEventBudget } from "./event-budget.js";
import { createEventStore } from "./event-store.js";
import { jsonRpcError } from "./http-body.js";
import { guardRequests } from "./request-guard.js";
import type { BuiltServer } from "../server.js";
import { watchBody } from "./watch-body.js";

export type SessionOptions = {
  build: () => BuiltServer;
  /** A session with no request and no open stream for this long is closed. */
  idleMs: number;
  /** Past this many, the least recently used idle session is closed to make room. */
  maxSessions: number;
  onError: (error: Error) => void;
};

/** The code the SDK uses for an unknown session. */
const SESSION_NOT_FOUND = -32001;

type Session = {
  transport: WebStandardStreamableHTTPServerTransport;
  built: BuiltServer;
  lastSeen: number;
  openStreams: number;
};

export type Sessions = {
  /** Handles an `initialize` POST: a new session, or the error the SDK gives. */
  open(req: Request, body: unknown): Promise<Response>;
  /** Handles any request carrying an `Mcp-Session-Id`. */
  handle(sessionId: string, req: Request, body?: unknown): Promise<Response>;
  readonly size: number;
  close(): Promise<void>;
};

export function createSessions({ build, idleMs, maxSessions, onError }: SessionOptions): Sessions {
  // Map order is least recently used first: every request moves its session to the end.
  const sessions = new Map<string, Session>();
  const eventBudget = createEventBudget();

  const closeSession = async (session: Session) => {
    await session.transport.close().catch(onError);
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

  const makeRoom = () => {
    if (sessions.size < maxSessions) return;
    for (const session of sessions.values()) {
      if (session.openStreams === 0) return void closeSession(session);
    }
  };

  return {
    async open(req, body) {
      makeRoom();
      const built = build();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        eventStore: createEventStore({ budget: eventBudget }),
        onsessioninitialized: (id) => {
          built.state.sessionId = id;
          sessions.set(id, session);
        },
      });
      const session: Session = { transport, built, lastSeen: Date.now(), openStreams: 0 };
      transport.onerror = onError;
      built.server.onclose = () => {
        if (built.state.sessionId !== undefined) sessions.delete(built.state.sessionId);
        built.dispose();
      };
      await built.server.connect(transport);
      guardRequests(transport);
      const response = await transport.handleRequest(req, { parsedBody: body });
      if (transport.sessionId === undefined) await closeSession(session);
      return response;
    },

    async handle(sessionId, req, body) {
      const session = sessions.get(sessionId);
      if (!session) {
        return jsonRpcError(
          404,
          SESSION_NOT_FOUND,
          "Session not found: it ended or never existed. Send initialize to start a new one.",
        );
      }
      sessions.delete(sessionId);
      sessions.set(sessionId, session);
      session.lastSeen = Date.now();
      const response = await session.transport.handleRequest(
        req,
        body === undefined ? undefined : { parsedBody: body },
      );
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
      await Promise.all([...sessions.values()].map(closeSession));
    },
  };
}
