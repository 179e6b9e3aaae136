/**
 * A JSON-RPC error thrown from a request handler. The SDK answers any thrown error that has an
 * integer `code` with that code, `message` and `data`; unlike `McpError`, this one does not put
 * "MCP error <code>:" in front of the message, so the caller reads just the sentence.
 */
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
