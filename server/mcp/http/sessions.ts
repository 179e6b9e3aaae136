/**
 * 2025-11-25 sessions (the SDK's transport serves one): each `initialize` gets a server, transport,
 * event store and an `Mcp-Session-Id` `<instance tag>.<uuid>` (nginx routes by the tag) bound to its
 * subject. At a limit only a session idle past a floor makes room, so an `initialize` flood cannot
 * push out sessions in use; an unknown id answers 404 and the client initializes again.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type AuthInfo } from "@modelcontextprotocol/server";
import { subjectOf } from "../../auth/subject.js";
import { createEventBudget, createEventStore, streamOfEventId } from "./event-store.js";
import { connectGuarded } from "./request-guard.js";
import { createRequestStreams } from "./request-streams.js";
import { jsonRpcError, retryLater } from "../../json-rpc-error.js";
import type { BuiltServer } from "../server.js";
import { watchBody } from "../../http/watch-body.js";

export type SessionTableOptions = {
  /** Past this many, the least recently used session idle for over `minIdleMs` makes room. */
  maxSessions: number;
  /** Past this many sessions of one subject, that subject's idle ones make room, or it is refused. */
  maxSessionsPerSubject: number;
  /** Sessions used more recently than this never make room. */
  minIdleMs: number;
  /** A session with no request and no open stream for this long is closed. */
  idleMs: number;
  now: () => number;
};

/** Which limit refused a newcomer, and in how many seconds a session could make room. */
type Refusal = { limit: "subject" | "total"; waitSeconds: number };

type Row<T> = { session: T; lastSeen: number; openStreams: number };

/** The sessions held, as bookkeeping on the clock it is given: it closes nothing itself. */
export class SessionTable<T extends { subject: string }> {
  // Map order is least recently used first: every use moves a row to the end.
  readonly #rows = new Map<string, Row<T>>();
  readonly #perSubject = new Map<string, number>();

  constructor(private readonly options: SessionTableOptions) {}

  get size(): number {
    return this.#rows.size;
  }

  get(id: string): T | undefined {
    return this.#rows.get(id)?.session;
  }

  sessions(): T[] {
    return [...this.#rows.values()].map((row) => row.session);
  }

  add(id: string, session: T): void {
    this.#rows.set(id, { session, lastSeen: this.options.now(), openStreams: 0 });
    this.#perSubject.set(session.subject, (this.#perSubject.get(session.subject) ?? 0) + 1);
  }

  /** Takes `id` out of the table (only if it holds `session`, when given); true when it did. */
  forget(id: string, session?: T): boolean {
    const row = this.#rows.get(id);
    if (!row || (session !== undefined && row.session !== session)) return false;
    this.#rows.delete(id);
    const count = (this.#perSubject.get(row.session.subject) ?? 1) - 1;
    if (count > 0) this.#perSubject.set(row.session.subject, count);
    else this.#perSubject.delete(row.session.subject);
    return true;
  }

  use(id: string): void {
    const row = this.#rows.get(id);
    if (!row) return;
    this.#rows.delete(id);
    this.#rows.set(id, row);
    row.lastSeen = this.options.now();
  }

  /** Notes a stream opened on `id`, never idle while open; returns what to call when it ends. */
  openStream(id: string): () => void {
    const row = this.#rows.get(id);
    if (!row) return () => {};
    row.openStreams++;
    return () => {
      row.openStreams--;
      row.lastSeen = this.options.now();
    };
  }

  /** Sessions with no open stream and no request for over the idle time: the ones to close. */
  idle(): T[] {
    const now = this.options.now();
    const rows = [...this.#rows.values()];
    return rows.filter((r) => r.openStreams === 0 && now - r.lastSeen > this.options.idleMs).map((r) => r.session);
  }

  /** Room for one more of `subject`: past its cap one of its own goes, past the total anyone's (handed back to close). */
  makeRoom(subject: string): { evicted: { id: string; session: T }[]; refused?: Refusal } {
    const evicted: { id: string; session: T }[] = [];
    const { maxSessions, maxSessionsPerSubject } = this.options;
    if ((this.#perSubject.get(subject) ?? 0) >= maxSessionsPerSubject) {
      const taken = this.#evict(subject);
      if (typeof taken === "number") return { evicted, refused: { limit: "subject", waitSeconds: taken } };
      evicted.push(taken);
    }
    if (this.#rows.size >= maxSessions) {
      const taken = this.#evict();
      if (typeof taken === "number") return { evicted, refused: { limit: "total", waitSeconds: taken } };
      evicted.push(taken);
    }
    return { evicted };
  }

  /** Takes out the least recently used idle session (of `subject`), or says in how many seconds one could go. */
  #evict(subject?: string): { id: string; session: T } | number {
    const { minIdleMs, now } = this.options;
    let waitMs = minIdleMs;
    for (const [id, row] of this.#rows) {
      if (row.openStreams > 0 || (subject !== undefined && row.session.subject !== subject)) continue;
      const idle = now() - row.lastSeen;
      if (idle > minIdleMs) {
        this.forget(id);
        return { id, session: row.session };
      }
      waitMs = minIdleMs - idle;
      break;
    }
    return Math.max(1, Math.ceil(waitMs / 1000));
  }
}

export type SessionOptions = Omit<SessionTableOptions, "now"> & {
  build: () => BuiltServer;
  /** The tag that starts every session id made here, which nginx routes by; random by default. */
  instanceId?: string;
  onError: (error: Error) => void;
};

type Session = { transport: WebStandardStreamableHTTPServerTransport; built: BuiltServer; subject: string };

/** The SDK's id for a session's GET stream. */
const STANDALONE_STREAM = "_GET_stream";

export function createSessions(options: SessionOptions) {
  const { idleMs, onError, instanceId = randomBytes(4).toString("hex") } = options;
  const table = new SessionTable<Session>({ ...options, now: Date.now });
  const requests = createRequestStreams();
  const eventBudget = createEventBudget();
  const close = (session: Session) => session.transport.close().catch(onError);

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
    built.server.onclose = () => {
      if (built.state.sessionId !== undefined) table.forget(built.state.sessionId, session);
      built.dispose();
    };
    await connectGuarded(built.server, transport, onError);
    return session;
  };

  const sweep = setInterval(() => table.idle().forEach((session) => void close(session)), Math.min(idleMs, 60_000));
  sweep.unref();

  return {
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
    async handle(sessionId: string, req: Request, body?: unknown, auth?: AuthInfo) {
      const session = table.get(sessionId);
      // another subject's session answers exactly as one that does not exist
      if (!session || session.subject !== subjectOf(auth)) return notFound();
      table.use(sessionId);
      const lastEventId = req.method === "GET" ? req.headers.get("last-event-id") : null;
      if (lastEventId !== null) {
        // a stream a cancellation ended: SSE's "do not reconnect"
        if (requests.ended(lastEventId)) return new Response(null, { status: 204 });
        // a resume takes its stream over: the old connection may not look closed yet behind a
        // proxy, and the SDK would answer 409 until it does
        const streamId = streamOfEventId(lastEventId);
        if (streamId === STANDALONE_STREAM) session.transport.closeStandaloneSSEStream();
        else if (streamId !== undefined) requests.takeOver(sessionId, streamId);
      }
      const response = await requests.serve(sessionId, session.transport, body, () =>
        session.transport.handleRequest(req, { ...(body === undefined ? {} : { parsedBody: body }), authInfo: auth }),
      );
      if (req.method !== "GET" || response.status !== 200) return response;
      // an open GET stream keeps the session alive however quiet
      return watchBody(response, table.openStream(sessionId));
    },
    get size() {
      return table.size;
    },
    async close() {
      clearInterval(sweep);
      await Promise.all(table.sessions().map(close));
    },
  };
}

/** An unknown session, with the SDK's code; another subject's session answers exactly so. */
const notFound = (): Response =>
  jsonRpcError(
    404,
    -32001,
    "Session not found: it ended, its server stopped, or it never existed. Send initialize to start a new one.",
  );

function noRoom({ limit, waitSeconds }: Refusal, { maxSessions, maxSessionsPerSubject }: SessionOptions): Response {
  const text =
    limit === "subject"
      ? `Too many sessions: this account already has ${maxSessionsPerSubject} open. ` +
        `End one you no longer use (DELETE /mcp with its Mcp-Session-Id), or try again in ${waitSeconds} s.`
      : `The server is at its limit of ${maxSessions} sessions, all in use. Try again in ${waitSeconds} s.`;
  return retryLater(limit === "subject" ? 429 : 503, text, waitSeconds);
}
