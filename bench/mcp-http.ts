/**
 * A bare stateless MCP client for the benchmarks: one `tools/call` per POST over node:http with a
 * keep-alive agent the caller sizes (a thousand long polls need a thousand sockets), reading the
 * answer whether it came as JSON or as an SSE stream. Results are parsed at this boundary.
 */
import { Agent, get, request, type IncomingMessage } from "node:http";
import * as z from "zod/mini";

/** The headers every benchmark request carries: a stateless Streamable HTTP POST. */
export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
} as const;

/** A keep-alive agent with room for `sockets` requests in flight to one server. */
export const createAgent = (sockets: number): Agent =>
  new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });

/** The JSON-RPC body of a `tools/call`. */
export function toolCallBody(name: string, args: Record<string, unknown>, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
}

const CallResult = z.object({
  isError: z.optional(z.boolean()),
  content: z.array(z.object({ type: z.string(), text: z.optional(z.string()) })),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
});
const RpcResponse = z.object({
  id: z.union([z.string(), z.number(), z.null()]),
  result: z.optional(CallResult),
  error: z.optional(z.object({ code: z.number(), message: z.string() })),
});

/** The JSON-RPC message in a response body: the body itself, or the SSE `data:` that answers. */
export function parseRpcBody(body: string): z.infer<typeof RpcResponse> {
  const trimmed = body.trimStart();
  if (trimmed.startsWith("{")) return RpcResponse.parse(JSON.parse(trimmed));
  for (const line of body.split("\n")) {
    // a session's stream opens with an empty priming event, the id a client resumes from
    if (!line.startsWith("data:") || line.slice(5).trim() === "") continue;
    const message = RpcResponse.safeParse(JSON.parse(line.slice(5)));
    if (message.success && (message.data.result || message.data.error)) return message.data;
  }
  throw new Error(`no JSON-RPC response in the body: ${body.slice(0, 200)}`);
}

/**
 * One POST. A kept-alive socket that the server closed as idle just as it was reused fails with
 * ECONNRESET before the server read anything; that request is sent once more on a new socket,
 * as Node's documentation advises (`request.reusedSocket`).
 */
function post(
  url: URL,
  body: string,
  agent: Agent | undefined,
  retried = false,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { ...MCP_HEADERS, "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (!retried && req.reusedSocket && error.code === "ECONNRESET") resolve(post(url, body, agent, true));
      else reject(error);
    });
    req.end(body);
  });
}

/**
 * Calls a tool and returns its `structuredContent` parsed with `output`. Throws on anything but a
 * successful result: a non-2xx status, a JSON-RPC error, an `isError` result or a malformed body.
 */
export async function callTool<T>(
  url: URL,
  name: string,
  args: Record<string, unknown>,
  output: z.ZodMiniType<T>,
  agent?: Agent,
): Promise<T> {
  const { status, text } = await post(url, toolCallBody(name, args), agent);
  if (status < 200 || status >= 300) throw new Error(`${name} answered HTTP ${status}: ${text.slice(0, 200)}`);
  const message = parseRpcBody(text);
  if (message.error) throw new Error(`${name} answered JSON-RPC error ${message.error.code}: ${message.error.message}`);
  if (!message.result || message.result.isError)
    throw new Error(`${name} failed: ${message.result?.content[0]?.text ?? "no result"}`);
  return output.parse(message.result.structuredContent);
}

/**
 * Opens `count` kept-alive sockets to the server behind `url` (GET /healthz on each), so many
 * clients start from open connections: a server busy with jobs accepts about one new connection
 * per event-loop turn, and the benchmarks measure answers, not accepts. Responses are held unread
 * until all have come, so each request needs a socket of its own; waves keep the SYNs within the
 * listen backlog.
 */
export async function openSockets(url: URL, agent: Agent, count: number, wave = 200): Promise<void> {
  const health = new URL("/healthz", url);
  const held: IncomingMessage[] = [];
  const once = () =>
    new Promise<void>(
      (resolve, reject) => void get(health, { agent }, (res) => resolve(void held.push(res))).on("error", reject),
    );
  for (let opened = 0; opened < count; opened += wave)
    await Promise.all(Array.from({ length: Math.min(wave, count - opened) }, once));
  await Promise.all(held.map((res) => new Promise((resolve) => res.resume().on("end", resolve))));
}
