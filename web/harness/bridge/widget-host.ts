/**
 * The harness's end of the widget bridge: accepts calls only from the current widget iframe,
 * parses them with the shared message schemas, runs them, and answers each by id. Also pushes
 * changed globals into the iframe.
 */
import { CHANNEL, WidgetCallSchema, type HostGlobalsUpdate, type HostReply } from "./messages.js";
import type { DisplayMode, OpenAiGlobals } from "../../host-globals.js";

export type WidgetHostHandlers = {
  /** Runs a tool call; resolves with the full tool result the widget receives. */
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  setWidgetState(state: unknown): void;
  /** Returns the granted mode (a host may refuse and keep the current one). */
  requestDisplayMode(mode: DisplayMode): DisplayMode;
  sendFollowUpMessage(prompt: string): void;
  openExternal(href: string): void;
  /** An image the widget gave `uploadFile` (the stand-in refuses anything else); answers its file id. */
  uploadFile(file: { name: string; type: string; size: number }): { fileId: string };
  notifyIntrinsicHeight(height: number): void;
  /** A message on our channel from the widget that did not parse. */
  onInvalid(data: unknown, error: string): void;
};

/**
 * Listens on `host` for messages from the widget window `frame()` returns (the iframe's
 * `contentWindow`, read at each message so a reloaded iframe is picked up). Returns the unsubscribe.
 */
export function listenToWidget(host: Window, frame: () => Window | null, handlers: WidgetHostHandlers): () => void {
  const onMessage = (event: MessageEvent) => {
    const widget = frame();
    // A sandboxed iframe's origin is "null", so the sender is identified by its window instead.
    if (widget === null || event.source !== widget) return;
    const data: unknown = event.data;
    if (typeof data !== "object" || data === null || (data as { channel?: unknown }).channel !== CHANNEL) return;
    const parsed = WidgetCallSchema.safeParse(data);
    if (!parsed.success) {
      handlers.onInvalid(data, parsed.error.message);
      const id = (data as { id?: unknown }).id;
      if (typeof id === "number")
        reply(widget, { channel: CHANNEL, type: "reply", id, ok: false, error: "The host could not read this call" });
      return;
    }
    void run(parsed.data, handlers)
      .then(
        (value): HostReply => ({ channel: CHANNEL, type: "reply", id: parsed.data.id, ok: true, value }),
        (error: unknown): HostReply => ({
          channel: CHANNEL,
          type: "reply",
          id: parsed.data.id,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .then((message) => reply(widget, message));
  };
  host.addEventListener("message", onMessage);
  return () => host.removeEventListener("message", onMessage);
}

/** Sends changed globals to the widget, which fires `openai:set_globals` with them. */
export function pushGlobals(widget: Window, globals: Partial<OpenAiGlobals>): void {
  const message: HostGlobalsUpdate = { channel: CHANNEL, type: "globals", globals };
  widget.postMessage(message, "*");
}

async function run(call: ReturnType<typeof WidgetCallSchema.parse>, h: WidgetHostHandlers): Promise<unknown> {
  switch (call.op) {
    case "callTool":
      return h.callTool(call.payload.name, call.payload.args ?? {});
    case "setWidgetState":
      h.setWidgetState(call.payload.state);
      return null;
    case "requestDisplayMode":
      return { mode: h.requestDisplayMode(call.payload.mode) };
    case "sendFollowUpMessage":
      h.sendFollowUpMessage(call.payload.prompt);
      return null;
    case "openExternal":
      h.openExternal(call.payload.href);
      return null;
    case "uploadFile":
      return h.uploadFile(call.payload);
    case "notifyIntrinsicHeight":
      h.notifyIntrinsicHeight(call.payload.height);
      return null;
    default: {
      const never: never = call;
      return never;
    }
  }
}

// The target origin must be "*": an opaque-origin iframe cannot be named. The message goes to
// that one window object, which is why the sender check above is by window, not by origin.
function reply(widget: Window, message: HostReply): void {
  widget.postMessage(message, "*");
}
