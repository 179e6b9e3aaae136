/**
 * A JSON-RPC error thrown from a request handler: the SDK answers its `code`, `message` and `data`;
 * unlike `McpError`, the message has no "MCP error <code>:" in front.
 */
/** MCP's code for an unknown resource (the SDK names none); 2026-07-28 answers -32602 instead. */
export const RESOURCE_NOT_FOUND = -32002;

export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "JsonRpcError";
  }
}
