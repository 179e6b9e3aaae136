/**
 * The standard headers each request to the server went out with, for the log. The transport
 * computes them inside its `send`, out of sight; so the logging transport marks a request's send
 * with its JSON-RPC id in a private header, and the fetch under the transport takes the mark off
 * again (the request leaves exactly as the SDK built it) and reports the standard headers it saw
 * against that id.
 */
import type { FetchLike, JSONRPCMessage, TransportSendOptions } from "@modelcontextprotocol/client";

const MARK = "x-harness-request-id";

/** MCP's own headers: the protocol revision, the method and its target (2026-07-28), the session (2025-11-25). */
const STANDARD = ["mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id"] as const;

export type RequestId = string | number;

/** The send options for `message`: a request gets the mark with its id; anything else goes as it was. */
export function markRequest(message: JSONRPCMessage, options?: TransportSendOptions): TransportSendOptions | undefined {
  if (!("method" in message) || !("id" in message)) return options;
  return { ...options, headers: { ...options?.headers, [MARK]: JSON.stringify(message.id) } };
}

/** Wraps the transport's fetch: a marked request is reported, by id, with its standard headers, and sent unmarked. */
export function tapHeaders(
  inner: FetchLike,
  report: (id: RequestId, headers: Record<string, string>) => void,
): FetchLike {
  return (url, init) => {
    const headers = new Headers(init?.headers);
    const mark = headers.get(MARK);
    if (mark === null) return inner(url, init);
    headers.delete(MARK);
    const seen: Record<string, string> = {};
    for (const name of STANDARD) {
      const value = headers.get(name);
      if (value !== null) seen[name] = value;
    }
    report(JSON.parse(mark) as RequestId, seen);
    return inner(url, { ...init, headers });
  };
}
