/**
 * Talking 2026-07-28 to the server in tests: the official v2 client pinned to that revision, the
 * Tasks extension's client session over it, and raw requests framed as that revision frames them
 * (envelope in `_meta`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) for what a client would
 * not send on its own.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type TaskEnabledSession } from "@modelcontextprotocol/ext-tasks/client";

export const MODERN = "2026-07-28";
export const TASKS = "io.modelcontextprotocol/tasks";
const CLIENT_INFO = { name: "giftgenius-test", version: "1.0.0" };

/** The official client, speaking only 2026-07-28 (`server/discover` first, then per-request envelopes). */
export async function connectModernClient(mcpUrl: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers } }));
  return client;
}

type Envelope = { capabilities?: Record<string, unknown>; meta?: Record<string, unknown> };

/** The `_meta` envelope of a 2026-07-28 request. */
function envelope({ capabilities = {}, meta = {} }: Envelope = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    ...meta,
  };
}

/** The capabilities of a client that speaks the Tasks extension. */
export const withTasks = { extensions: { [TASKS]: {} } };

/** The standard headers for a request: what the SDK's transport sends. */
function standardHeaders(method: string, params: Record<string, unknown> = {}): Record<string, string> {
  const name = params.name ?? params.uri ?? params.taskId;
  return {
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
    ...(typeof name === "string" && { "mcp-name": name }),
  };
}

let nextId = 1;

type Framing = Envelope & { headers?: Record<string, string> };

/**
 * One request as 2026-07-28 frames it: the body with its envelope and the headers; `headers`
 * override (or, set to "", drop) the standard ones.
 */
export function frameModern(
  method: string,
  params: Record<string, unknown> = {},
  { headers = {}, ...framing }: Framing = {},
): { headers: Record<string, string>; body: string } {
  const body = { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: envelope(framing) } };
  const all: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...standardHeaders(method, params),
    ...headers,
  };
  for (const [key, value] of Object.entries(all)) if (value === "") delete all[key];
  return { headers: all, body: JSON.stringify(body) };
}

/** POSTs one framed request. */
export async function postModern(
  mcpUrl: URL,
  method: string,
  params: Record<string, unknown> = {},
  framing: Framing = {},
): Promise<Response> {
  return fetch(mcpUrl, { method: "POST", ...frameModern(method, params, framing) });
}

type JsonRpcReply = {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

/** The JSON-RPC response in a reply, plain JSON or the last message of an SSE stream. */
export async function replyOf(response: Response): Promise<JsonRpcReply> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return JSON.parse(text) as JsonRpcReply;
  const messages = text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as JsonRpcReply);
  const reply = messages.find((m) => "result" in m || "error" in m);
  if (!reply) throw new Error(`No response in the stream: ${text.slice(0, 500)}`);
  return reply;
}

/** One framed request and its response. */
export async function requestModern(
  mcpUrl: URL,
  method: string,
  params: Record<string, unknown> = {},
  options: Framing = {},
): Promise<JsonRpcReply & { status: number }> {
  const response = await postModern(mcpUrl, method, params, options);
  return { status: response.status, ...(await replyOf(response)) };
}

/**
 * The Tasks extension's client session over a modern client: its requests go out raw (the SDK
 * client does not know `tasks/*` or task results), framed with the Tasks capability.
 */
export function taskSession(client: Client, mcpUrl: URL, headers: Record<string, string> = {}): TaskEnabledSession {
  return createTaskSessionFromClient(client, {
    endpointId: mcpUrl.href,
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: withTasks },
    rawDispatch: async (request) => {
      const { method, params = {} } = request as { method: string; params?: Record<string, unknown> };
      const response = await fetch(mcpUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...standardHeaders(method, params),
          ...headers,
        },
        // the session hands over the method and params; the id and version are the wire's
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, ...(request as object) }),
      });
      const reply = await replyOf(response);
      return reply.error
        ? { kind: "error", error: reply.error as never }
        : { kind: "result", result: (reply.result ?? {}) as never };
    },
  });
}
