/**
 * The HTTP server's timeouts, for the entry point and for tests that must behave as it does:
 * idle keep-alive sockets outlive the clients' own idle timeouts, and a client that sends its
 * request slowly (a slowloris) is cut off instead of holding a socket for good.
 */
import type { ServerType } from "@hono/node-server";

/** Sets the keep-alive, header and request timeouts on a Node HTTP server. */
export function setHttpTimeouts(server: ServerType): void {
  if (!("keepAliveTimeout" in server)) return;
  // Idle sockets outlive the usual 60 s idle timeout of proxies and HTTP clients, so a client never
  // reuses a socket that the server is closing at that moment (Node's default is 5 s).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Receiving one whole request (headers and body, at most a 10 MB CSV) may take 2 minutes, not
  // Node's default 5; answers are not bounded by it, so long polls and SSE streams are unaffected.
  server.requestTimeout = 120_000;
}
