/**
 * The three ways a request reaches /mcp, as the headers and body a load generator repeats:
 * 2025-11-25 without a session (no envelope), 2025-11-25 in a session the official client opened,
 * and 2026-07-28 with its per-request envelope, framed by test-kit's modern client exactly as the
 * tests frame it. Every body's JSON-RPC id is `ID_PLACEHOLDER`, a fresh number for each request
 * sent (`load.ts`): requests in flight together in one session need ids of their own.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as z from "zod/mini";
import { postModern } from "../test-kit/modern-client.js";
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

/** The headers a framing decides: content negotiation and the MCP ones, not the connection's. */
const framingHeaders = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).filter(
      (entry): entry is [string, string] =>
        typeof entry[1] === "string" && /^(content-type|accept|mcp-.*)$/.test(entry[0]),
    ),
  );

/**
 * A 2026-07-28 request as `postModern` frames it (envelope, `MCP-Protocol-Version`, `Mcp-Method`,
 * `Mcp-Name`), caught by a loopback server that answers nothing, its id made the placeholder.
 */
export async function modernRequest(
  method: string,
  params: Record<string, unknown>,
  framing: Parameters<typeof postModern>[3] = {},
): Promise<Framed> {
  let caught: Framed | undefined;
  const catcher = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const message = z.record(z.string(), z.unknown()).parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      caught = { headers: framingHeaders(req.headers), body: JSON.stringify({ ...message, id: ID_PLACEHOLDER }) };
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => catcher.listen(0, "127.0.0.1", resolve));
  try {
    const address = catcher.address();
    if (address === null || typeof address === "string") throw new Error("no TCP address");
    await (await postModern(new URL(`http://127.0.0.1:${address.port}/mcp`), method, params, framing)).text();
  } finally {
    catcher.closeAllConnections();
    catcher.close();
  }
  if (!caught) throw new Error(`postModern sent no ${method}`);
  return caught;
}
