/**
 * The three ways a request reaches /mcp, as the headers and body a load generator repeats:
 * 2025-11-25 without a session (no envelope), 2025-11-25 in a session the official client opened,
 * and 2026-07-28 with its per-request envelope, framed by test-kit's modern client exactly as the
 * tests frame it. Every body's JSON-RPC id is `ID_PLACEHOLDER`, a fresh number for each request
 * sent (`load.ts`): requests in flight together in one session need ids of their own.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { frameModern } from "../test-kit/modern-client.js";
import { ID_PLACEHOLDER } from "./load.js";
import { MCP_HEADERS } from "./mcp-http.js";

export type Framed = { headers: Record<string, string>; body: string };

/** A 2025-11-25 request without a session: the stateless path. */
export function legacyRequest(method: string, params: Record<string, unknown>): Framed {
  return { headers: { ...MCP_HEADERS }, body: JSON.stringify({ jsonrpc: "2.0", id: ID_PLACEHOLDER, method, params }) };
}

/** A session opened by the official client; `frame` puts a request in it. */
export type Session = { frame(method: string, params: Record<string, unknown>): Framed; close(): Promise<void> };

export async function openSession(url: URL): Promise<Session> {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: "giftgenius-bench", version: "1.0.0" });
  await client.connect(transport);
  const { sessionId, protocolVersion } = transport;
  if (!sessionId || !protocolVersion) throw new Error("initialize opened no session");
  const session = { "mcp-session-id": sessionId, "mcp-protocol-version": protocolVersion };
  return {
    frame(method, params) {
      const framed = legacyRequest(method, params);
      return { headers: { ...framed.headers, ...session }, body: framed.body };
    },
    async close() {
      await transport.terminateSession();
      await client.close();
    },
  };
}

/** A 2026-07-28 request as the tests frame it (envelope, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`). */
export function modernRequest(
  method: string,
  params: Record<string, unknown>,
  framing: Parameters<typeof frameModern>[2] = {},
): Framed {
  const { headers, body } = frameModern(method, params, framing);
  return { headers, body: JSON.stringify({ ...JSON.parse(body), id: ID_PLACEHOLDER }) };
}
