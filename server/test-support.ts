/**
 * For integration tests: starts the real app on an ephemeral port over HTTP, with an in-memory
 * job store unless told otherwise, and connects the official MCP client to it.
 */
import { serve } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createApp, type AppOptions } from "./app.js";
import { matchGifts } from "./gifts/matcher.js";
import { createJobService } from "./jobs/index.js";
import type { JobService } from "./jobs/job-service.js";
import { createMemoryStore } from "./jobs/stores/memory.js";

export type TestServer = {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  mcpUrl: URL;
  jobs: JobService;
  close(): Promise<void>;
};

/** Starts the app on 127.0.0.1 and a free port; `close` ends the app, the jobs and every connection. */
export async function startTestServer(options: Partial<AppOptions> = {}): Promise<TestServer> {
  const jobs = options.jobs ?? createJobService({ store: createMemoryStore(), match: matchGifts });
  const { app, close } = createApp({ ...options, jobs });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The test server has no TCP address");
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    mcpUrl: new URL(`${url}/mcp`),
    jobs,
    async close() {
      await close();
      await jobs.close();
      if ("closeAllConnections" in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Connects an official MCP client (Streamable HTTP) to the server. */
export async function connectClient(mcpUrl: URL, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: "giftgenius-test", version: "1.0.0" }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl));
  return client;
}

/** Raw JSON-RPC over HTTP, for what the official client would refuse to send. */
export async function postRaw(mcpUrl: URL, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
  });
}

export type SseEvent = { id?: string; event?: string; data: string };
export type SseReader = {
  /** The next event; rejects when the stream ends first. */
  next(): Promise<SseEvent>;
  /** Disconnects, as a client going away would. */
  close(): Promise<void>;
};

/** Reads a `text/event-stream` response event by event. */
export function readSse(response: Response): SseReader {
  if (!response.body) throw new Error("The response has no body");
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { data: "" };
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "id") event.id = value;
            else if (field === "event") event.event = value;
            else if (field === "data") data.push(value);
          }
          if (data.length === 0 && event.id === undefined) continue;
          event.data = data.join("\n");
          return event;
        }
        const chunk = await reader.read();
        if (chunk.done) throw new Error("The event stream ended");
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    async close() {
      await reader.cancel().catch(() => {});
    },
  };
}

/** A raw MCP session over fetch: initialize, then JSON-RPC requests with its session id. */
export async function openRawSession(mcpUrl: URL, protocolVersion = "2025-11-25"): Promise<{
  sessionId: string;
  headers: Record<string, string>;
  /** Sends a request and returns its JSON-RPC response, whether it came as JSON or SSE. */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}> {
  const init = await postRaw(
    mcpUrl,
    JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  );
  const sessionId = init.headers.get("mcp-session-id");
  if (!sessionId) throw new Error(`initialize answered ${init.status} without a session id`);
  await init.text();
  const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": protocolVersion };
  await postRaw(mcpUrl, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers);
  let id = 0;
  return {
    sessionId,
    headers,
    async request(method, params) {
      const requestId = ++id;
      const response = await postRaw(mcpUrl, JSON.stringify({ jsonrpc: "2.0", id: requestId, method, params }), headers);
      if (response.headers.get("content-type")?.startsWith("application/json")) return response.json();
      const sse = readSse(response);
      for (;;) {
        const message = JSON.parse((await sse.next()).data || "{}");
        if (message.id === requestId) {
          await sse.close();
          return message;
        }
      }
    },
  };
}
