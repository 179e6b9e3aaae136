/**
 * Reads what the host's `callTool` resolved to (an MCP tool result, or the older { result: string })
 * with a shared schema; `{ error }` is one whatever `isError` says (MCPJam says false for every reply).
 */
import * as z from "zod/mini";
import { ToolErrorSchema } from "../../shared/errors.js";
import { isRecord, parseJson } from "../json-values.js";

/** A domain code (shared/errors.ts) or the widget's own; `transient` when trying again may help. */
export type ToolFailure = { code: string; message: string; hint?: string; transient: boolean };
export type ToolOutcome<T> = { ok: true; value: T } | { ok: false; error: ToolFailure };

/** Domain codes worth retrying: the server restarted or hit a passing fault. */
const TRANSIENT_CODES = new Set(["internal", "interrupted"]);

type Normalized = { isError: boolean; structured: unknown; text: string };

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((item) => (isRecord(item) && item.type === "text" && typeof item.text === "string" ? item.text : ""))
    .filter(Boolean)
    .join("\n");
}

function normalize(raw: unknown): Normalized {
  if (!isRecord(raw)) return { isError: false, structured: undefined, text: typeof raw === "string" ? raw : "" };
  if ("structuredContent" in raw || "content" in raw || "isError" in raw) {
    const text = textOf(raw.content);
    // servers without an outputSchema put the JSON in the text content
    const structured = raw.structuredContent ?? (raw.isError === true ? undefined : parseJson(text));
    return { isError: raw.isError === true, structured, text };
  }
  if (typeof raw.result === "string") {
    const parsed = parseJson(raw.result);
    if (isRecord(parsed) && ("structuredContent" in parsed || "isError" in parsed)) return normalize(parsed);
    return { isError: false, structured: parsed, text: raw.result };
  }
  return { isError: false, structured: raw, text: "" };
}

/** A failure of the widget's own, worded from `code`. */
export function localFailure(code: "unreachable" | "timeout" | "bad_reply", message = ""): ToolFailure {
  return { code, message, transient: true };
}

/** Turns a raw `callTool` reply into a parsed value or a failure; never throws. */
export function readToolReply<T>(raw: unknown, schema: z.ZodMiniType<T>): ToolOutcome<T> {
  const reply = normalize(raw);
  const error = ToolErrorSchema.safeParse(isRecord(reply.structured) ? reply.structured.error : undefined);
  if (error.success) {
    const { code, message, hint } = error.data;
    return {
      ok: false,
      error: { code, message, ...(hint === undefined ? {} : { hint }), transient: TRANSIENT_CODES.has(code) },
    };
  }
  if (reply.isError) return { ok: false, error: { code: "internal", message: reply.text, transient: true } };
  const parsed = schema.safeParse(reply.structured);
  if (parsed.success) return { ok: true, value: parsed.data };
  // a text reply that is not the expected JSON is the host's own sentence: show it as it is
  return { ok: false, error: localFailure("bad_reply", reply.structured === undefined ? reply.text : "") };
}
