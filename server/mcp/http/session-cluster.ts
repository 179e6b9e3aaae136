/**
 * What sessions kept in Redis add to the routes of sessions.ts: the notification stream (GET)
 * served from Redis by `SessionStreams` on whichever instance gets it, and the signals of the other
 * instances: a session ended there ends here, and a cancellation sent there of a request held here
 * reaches the request's transport here.
 */
import { ProtocolErrorCode, type RequestId } from "@modelcontextprotocol/server";
import { jsonRpcError } from "../../json-rpc-error.js";
import type { RequestStreams } from "./request-streams.js";
import { STREAM_ID } from "./session-records.js";
import { notFound, streamOver } from "./session-replies.js";
import { JSON_OR_SSE } from "./session-revival.js";
import type { Session, SessionCluster } from "./session-start.js";
import type { SessionTable } from "./session-table.js";

/** The code the SDK answers a GET that does not accept an event stream with. */
const NOT_ACCEPTABLE = -32000;

/** The session's notification stream, from Redis, for its own subject only. */
export async function openClusterStream(
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

export type ClusterSignalOptions = {
  cluster: SessionCluster;
  table: SessionTable<Session>;
  requests: RequestStreams;
  close: (session: Session) => Promise<void>;
  onError: (error: Error) => void;
};

/** Hears the other instances' signals about sessions held here; returns the unsubscribe. */
export function hearCluster({ cluster, table, requests, close, onError }: ClusterSignalOptions): () => void {
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
