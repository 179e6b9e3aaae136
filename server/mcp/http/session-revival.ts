/**
 * A session kept in Redis that this instance does not hold, held here: its record loaded, room
 * made, and a server and transport initialized again with the client's own `initialize`
 * parameters. Requests that arrive together for the same session share one revival.
 */
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { SessionRecords } from "./session-records.js";
import type { Session, StartSession } from "./session-start.js";

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
