/**
 * A JSON-RPC error thrown from a request handler. The SDK answers any thrown error that has an
 * integer `code` with that code, `message` and `data`; unlike `McpError`, this one does not put
 * "MCP error <code>:" in front of the message, so the caller reads just the sentence.
 */
/** MCP's code for an unknown resource (the SDK's ErrorCode has no name for it); 2026-07-28 answers -32602 instead. */
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
