/**
 * One MCP connection of the harness, in the protocol revision the top bar chose: the official v2
 * client over Streamable HTTP, every message tapped into the log with the standard headers its
 * request went out with. 2025-11-25 is the plain `initialize` handshake, as a 2025 client sends it
 * (a session, and the session's GET stream for job and resource notifications); 2026-07-28 is
 * pinned: `server/discover`, then the per-request `_meta` envelope, no session, and change
 * notifications only on a `subscriptions/listen` stream the harness opens for the job it follows.
 */
import {
  Client,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type McpSubscription,
} from "@modelcontextprotocol/client";
import { LoggingTransport } from "./logging-transport.js";
import { offThreadBodyFetch } from "./off-thread-body.js";
import { markRequest, tapHeaders, type RequestId } from "./wire-headers.js";

/** The protocol revisions the harness speaks, the first the default. */
export const PROTOCOLS = ["2025-11-25", "2026-07-28"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

const CLIENT_INFO = { name: "giftgenius-harness", version: "0.1.0" };

export type ConnectionTaps = {
  message(direction: "out" | "in", message: JSONRPCMessage): void;
  headers(id: RequestId, headers: Record<string, string>): void;
  /** Something the harness itself saw happen on the connection (a transport error, a listen stream ending). */
  note(method: string, detail: unknown): void;
  /** The connection closed without `close()`. */
  lost(): void;
};

export type McpConnection = {
  client: Client;
  /** The 2025-11-25 session's id; null in 2026-07-28, which has none. */
  sessionId: string | null;
  /** Asks for the changes of the resource `uri` (a job's result), replacing what was asked before in 2026-07-28. */
  watch(uri: string): Promise<void>;
  /** Ends the listen stream, then the session on the server (DELETE), then the client. */
  close(): Promise<void>;
};

/** Connects in `protocol`; rejects when the server does not speak it. */
export async function openConnection(endpoint: URL, protocol: Protocol, taps: ConnectionTaps): Promise<McpConnection> {
  // A tool call with an uploaded CSV of megabytes must not hold the page while it is sent.
  const wire = new StreamableHTTPClientTransport(endpoint, {
    fetch: tapHeaders(offThreadBodyFetch(), taps.headers),
  });
  const transport = new LoggingTransport(wire, {
    message: taps.message,
    error: (error) => taps.note("transport/error", { message: error.message }),
    sendOptions: markRequest,
  });
  const modern = protocol !== PROTOCOLS[0];
  const client = new Client(CLIENT_INFO, modern ? { versionNegotiation: { mode: { pin: protocol } } } : {});
  let closing = false;
  client.onclose = () => {
    if (!closing) taps.lost();
  };
  await client.connect(transport);
  if (!modern && client.getServerCapabilities()?.logging) await client.setLoggingLevel("info").catch(() => undefined);

  let subscription: McpSubscription | null = null;
  // one stream at a time: the job followed last replaces the one before
  const listen = async (uri: string) => {
    const next = await client.listen({ resourceSubscriptions: [uri] });
    const replaced = subscription;
    subscription = next;
    await replaced?.close();
    void next.closed.then((reason) => {
      if (reason !== "local") taps.note("subscriptions/listen closed", { reason, uri });
    });
  };

  return {
    client,
    sessionId: transport.sessionId ?? null,
    async watch(uri) {
      if (!client.getServerCapabilities()?.resources?.subscribe) return;
      await (modern ? listen(uri) : client.subscribeResource({ uri }).then(() => undefined));
    },
    async close() {
      closing = true;
      await subscription?.close().catch(() => undefined);
      await wire.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}
