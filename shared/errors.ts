/**
 * Domain error codes and the payload of an `isError: true` tool result, in one place.
 * Protocol errors (JSON-RPC codes) are not here: they belong to the transport layer.
 */
import * as z from "zod/mini";

export const ERROR_CODES = [
  "invalid_arguments",
  "no_gift_fits",
  "invalid_csv",
  "input_too_large",
  "too_many_rows",
  "unknown_job",
  "job_not_finished",
  "interrupted",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What a failed tool call carries in `structuredContent.error`. */
export const ToolErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  hint: z.optional(z.string()),
});
export type ToolError = z.infer<typeof ToolErrorSchema>;

/** JSON-RPC 2.0 error codes used by the server. */
export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  RESOURCE_NOT_FOUND: -32002,
} as const;
