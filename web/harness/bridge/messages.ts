/**
 * What the widget's `window.openai` stand-in sends to the harness over postMessage, as zod
 * schemas: the harness parses every message with them before acting on it. The stand-in runs
 * inside the sandboxed iframe and cannot import this file; it writes the same shapes by hand.
 */
import * as z from "zod/mini";

/** Marks the harness's messages, so unrelated postMessage traffic is ignored on both sides. */
export const CHANNEL = "giftgenius-harness";

const call = <Op extends string, P extends z.ZodMiniType>(op: Op, payload: P) =>
  z.object({ channel: z.literal(CHANNEL), type: z.literal("call"), id: z.number(), op: z.literal(op), payload });

/** A call from the widget; each is answered with one `reply` carrying the same `id`. */
export const WidgetCallSchema = z.discriminatedUnion("op", [
  call(
    "callTool",
    z.object({ name: z.string().check(z.minLength(1)), args: z.optional(z.record(z.string(), z.unknown())) }),
  ),
  call("setWidgetState", z.object({ state: z.unknown() })),
  call("requestDisplayMode", z.object({ mode: z.enum(["inline", "fullscreen", "pip"]) })),
  call("sendFollowUpMessage", z.object({ prompt: z.string() })),
  call("openExternal", z.object({ href: z.string() })),
  call("uploadFile", z.object({ name: z.string(), type: z.string(), size: z.number() })),
  call("notifyIntrinsicHeight", z.object({ height: z.number() })),
]);

/** The harness's answer to a call: a value, or an error message the stand-in rejects with. */
export type HostReply =
  | { channel: typeof CHANNEL; type: "reply"; id: number; ok: true; value: unknown }
  | { channel: typeof CHANNEL; type: "reply"; id: number; ok: false; error: string };

/** Globals that changed; the stand-in merges them and fires `openai:set_globals`. */
export type HostGlobalsUpdate = { channel: typeof CHANNEL; type: "globals"; globals: Record<string, unknown> };
