/**
 * How tool outcomes become `CallToolResult`s: a value is `structuredContent` plus a text the
 * model can read; a domain error is `isError: true` with `structuredContent: { error }` and a
 * sentence that says what to do next.
 */
import type { CallToolResult as SdkCallToolResult, ContentBlock } from "@modelcontextprotocol/server";
import type { ToolError } from "../../shared/errors.js";
import type { Outcome } from "../outcomes.js";

/** A tool's result: the SDK's, whose `structuredContent` is always an object here. */
export type CallToolResult = SdkCallToolResult & { structuredContent?: Record<string, unknown> };

/** A successful result. */
export function success(structured: Record<string, unknown>, text: string, more: ContentBlock[] = []): CallToolResult {
  return { content: [{ type: "text", text }, ...more], structuredContent: structured };
}

/** A domain failure the caller can fix or retry. */
export function failure(error: ToolError): CallToolResult {
  const text = error.hint ? `${error.message} ${error.hint}` : error.message;
  return { content: [{ type: "text", text }], structuredContent: { error }, isError: true };
}

/** Maps a job-service outcome: its value through `render`, its error through `failure`. */
export function fromOutcome<T>(outcome: Outcome<T>, render: (value: T) => CallToolResult): CallToolResult {
  return outcome.ok ? render(outcome.value) : failure(outcome.error);
}
