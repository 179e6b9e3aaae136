/**
 * The answers the session routes give without a transport: an unknown session, a stream a
 * cancellation ended, no room for a newcomer.
 */
import { jsonRpcError, retryLater } from "../../json-rpc-error.js";
import type { Refusal } from "./session-table.js";

/** The code the SDK uses for an unknown session. */
const SESSION_NOT_FOUND = -32001;

/** An unknown session; another subject's session answers exactly so. */
export const notFound = (): Response =>
  jsonRpcError(
    404,
    SESSION_NOT_FOUND,
    "Session not found: it ended or never existed. Send initialize to start a new one.",
  );

/** A resume of a stream that a cancellation ended: SSE's "do not reconnect". */
export const streamOver = (): Response => new Response(null, { status: 204 });

/** The refusal of a newcomer at a limit, with when to try again. */
export function noRoom(
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
