import {
  Client,
  InMemoryTransport,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { LoggingTransport } from "./logging-transport.js";

/** A real SDK server and client (v2) over the SDK's in-memory pair, with the client side tapped. */
async function connected() {
  const server = new McpServer({ name: "t", version: "1" }, { capabilities: { logging: {} } });
  server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
    await ctx.mcpReq.notify({ method: "notifications/message", params: { level: "info", data: `echo ${text}` } });
    return { content: [{ type: "text", text }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const seen: [string, JSONRPCMessage][] = [];
  const client = new Client({ name: "harness-test", version: "1" });
  await server.connect(serverSide);
  await client.connect(new LoggingTransport(clientSide, { message: (d, m) => seen.push([d, m]) }));
  return { client, server, seen };
}

const label = ([dir, m]: [string, JSONRPCMessage]) =>
  `${dir} ${"method" in m ? m.method : "id" in m ? `reply ${m.id}` : "?"}`;

describe("LoggingTransport", () => {
  it("reports the handshake, each request, its reply and notifications, in order", async () => {
    const { client, server, seen } = await connected();
    const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(seen.map(label)).toEqual([
      "out initialize",
      "in reply 0",
      "out notifications/initialized",
      "out tools/call",
      "in notifications/message",
      "in reply 1",
    ]);
    await client.close();
    await server.close();
  });

  it("reports protocol errors as they came", async () => {
    const { client, server, seen } = await connected();
    await expect(client.request({ method: "prompts/list" }, z.object({}).passthrough())).rejects.toThrow();
    const last = seen[seen.length - 1];
    expect(last[0]).toBe("in");
    expect(last[1]).toMatchObject({ error: { code: -32601 } });
    await client.close();
    await server.close();
  });

  it("passes close through to the client", async () => {
    const { client, server } = await connected();
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await server.close();
    expect(closed).toBe(true);
  });

  it("sends each message with the options the tap gives it, and says what the inner transport is", async () => {
    const sent: [JSONRPCMessage, TransportSendOptions | undefined][] = [];
    const inner: Transport = {
      hasPerRequestStream: true,
      start: async () => {},
      close: async () => {},
      send: async (message, options) => void sent.push([message, options]),
    };
    const tapped = new LoggingTransport(inner, {
      message: () => {},
      sendOptions: (message, options) => ("id" in message ? { ...options, headers: { mark: "1" } } : options),
    });
    await tapped.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    await tapped.send({ jsonrpc: "2.0", method: "notifications/initialized" }, { relatedRequestId: 1 });
    expect(sent.map(([, options]) => options)).toEqual([{ headers: { mark: "1" } }, { relatedRequestId: 1 }]);
    expect(tapped.hasPerRequestStream).toBe(true);
  });
});
