/** JSON-RPC error responses as HTTP replies, for whatever refuses a request before the MCP server sees it. */
import { ProtocolErrorCode } from "@modelcontextprotocol/server";

/** A JSON-RPC error response; `id` is null unless it answers a known request. */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  data?: unknown,
  id: string | number | null = null,
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message, data }, id }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** A refusal worth retrying: a JSON-RPC internal error with `Retry-After` in seconds. */
export function retryLater(status: number, message: string, seconds: number): Response {
  const response = jsonRpcError(status, ProtocolErrorCode.InternalError, message);
  response.headers.set("retry-after", String(seconds));
  return response;
}
