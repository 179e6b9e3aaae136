import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { LoggingTransport } from "./logging-transport.js";

/** A real SDK server and client over the SDK's in-memory pair, with the client side tapped. */
async function connected() {
  const server = new McpServer({ name: "t", version: "1" }, { capabilities: { logging: {} } });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
    await extra.sendNotification({ method: "notifications/message", params: { level: "info", data: `echo ${text}` } });
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
});
