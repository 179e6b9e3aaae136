/**
 * The host adapter for the MCP Apps standard (ext-apps, spec 2026-01-26): JSON-RPC over
 * postMessage with the parent frame. `ui/initialize` then `ui/notifications/initialized`; tool
 * input, result and cancellation arrive as notifications; `host-context-changed` updates theme,
 * locale, display mode and size; tools are called with `tools/call` through the host; the widget
 * reports its size with `ui/notifications/size-changed` and answers `ui/resource-teardown`; files go
 * out through `ui/download-file` (or `ui/open-link`) where the host lists it in `hostCapabilities`.
 * Written by hand rather than with the package's `App` class, which brings zod and the SDK's
 * protocol layer into the bundle (about 111 KB gzipped, more than the whole widget).
 */
import { isDisplayMode } from "../../host-globals.js";
import { isRecord } from "../../json-values.js";
import { createGlobals, INITIAL_GLOBALS, type FileDelivery, type Host, type HostGlobals } from "../host.js";
import { localFailure, readToolReply } from "../tool-reply.js";
import { observeSize } from "./size.js";

export const PROTOCOL_VERSION = "2026-01-26";
/** How long to wait for a host to answer `ui/initialize` before saying there is none. */
const CONNECT_TIMEOUT_MS = 5_000;

type Message = {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};
/** Where messages go and come from: the parent frame, or a test's in-memory pair. */
export type Port = { post(message: Message): void; listen(receive: (message: unknown) => void): () => void };

/** The parent frame as a port: only messages from it are heard. */
function parentPort(win: Window): Port {
  return {
    post: (message) => win.parent.postMessage(message, "*"),
    listen(receive) {
      const onMessage = (event: MessageEvent) => {
        if (event.source === win.parent) receive(event.data);
      };
      win.addEventListener("message", onMessage);
      return () => win.removeEventListener("message", onMessage);
    },
  };
}

/** The widget's globals from a (partial) MCP Apps host context. */
function fromContext(context: unknown): Partial<HostGlobals> {
  if (!isRecord(context)) return {};
  const out: Partial<HostGlobals> = {};
  if (context.theme === "light" || context.theme === "dark") out.theme = context.theme;
  if (typeof context.locale === "string" && context.locale !== "") out.locale = context.locale;
  if (isDisplayMode(context.displayMode)) out.displayMode = context.displayMode;
  if (Array.isArray(context.availableDisplayModes))
    out.displayModes = context.availableDisplayModes.filter(isDisplayMode);
  const box = context.containerDimensions;
  if (isRecord(box)) {
    const height = typeof box.maxHeight === "number" ? box.maxHeight : box.height;
    out.maxHeight = typeof height === "number" && height > 0 ? height : null;
  }
  return out;
}

/** Connects to the MCP Apps host over `port` (the parent frame by default). */
export function createMcpAppsHost(win: Window, port: Port = parentPort(win)): Host {
  const globals = createGlobals(INITIAL_GLOBALS);
  const pending = new Map<number | string, (reply: { result?: unknown; error?: unknown }) => void>();
  const teardown = new Set<() => void>();
  let nextId = 1;
  let stopSize = () => {};
  let delivery: FileDelivery = "none";

  function request(method: string, params: unknown): Promise<{ result?: unknown; error?: unknown }> {
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      port.post({ jsonrpc: "2.0", id, method, params });
    });
  }
  const notify = (method: string, params: unknown = {}) => port.post({ jsonrpc: "2.0", method, params });

  function onNotification(method: string, params: unknown) {
    const p = isRecord(params) ? params : {};
    switch (method) {
      case "ui/notifications/tool-input":
        return globals.update({ toolInput: p.arguments ?? null });
      case "ui/notifications/tool-result":
        return globals.update({ toolOutput: p.structuredContent ?? null, toolResponseMetadata: p._meta ?? null });
      case "ui/notifications/tool-cancelled":
        return globals.update({ toolCancelled: true });
      case "ui/notifications/host-context-changed":
        return globals.update(fromContext(p));
    }
  }

  function onRequest(id: number | string, method: string) {
    if (method === "ui/resource-teardown") {
      for (const listener of [...teardown]) listener();
      teardown.clear();
      return port.post({ jsonrpc: "2.0", id, result: {} });
    }
    if (method === "ping") return port.post({ jsonrpc: "2.0", id, result: {} });
    port.post({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
  }

  const stopListening = port.listen((raw) => {
    if (!isRecord(raw) || raw.jsonrpc !== "2.0") return;
    const { id, method } = raw;
    if (typeof method === "string") {
      if (typeof id === "number" || typeof id === "string") onRequest(id, method);
      else onNotification(method, raw.params);
      return;
    }
    if (typeof id === "number" || typeof id === "string") {
      pending.get(id)?.({ result: raw.result, error: raw.error });
      pending.delete(id);
    }
  });

  // the handshake: nothing else is sent to the host before it has answered
  const connected = (async () => {
    if (win.parent === win) return false;
    const timeout = new Promise<null>((resolve) => win.setTimeout(() => resolve(null), CONNECT_TIMEOUT_MS));
    const reply = await Promise.race([
      request("ui/initialize", {
        protocolVersion: PROTOCOL_VERSION,
        appInfo: { name: "GiftGenius", version: "0.1.0" },
        appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
      }),
      timeout,
    ]);
    if (reply === null || !isRecord(reply.result)) return false;
    const caps = isRecord(reply.result.hostCapabilities) ? reply.result.hostCapabilities : {};
    delivery = caps.downloadFile ? "embedded" : caps.openLinks ? "link" : "none";
    globals.update({ ...fromContext(reply.result.hostContext), connection: "ready" });
    notify("ui/notifications/initialized");
    stopSize = observeSize(win, (size) => notify("ui/notifications/size-changed", size));
    return true;
  })().then((ok) => {
    if (!ok) globals.update({ connection: "none" });
    return ok;
  });

  return {
    getGlobals: globals.get,
    subscribe: globals.subscribe,
    async callTool(name, args, schema) {
      if (!(await connected)) return { ok: false, error: localFailure("unreachable", "No MCP Apps host answered.") };
      const reply = await request("tools/call", { name, arguments: args });
      if (reply.error !== undefined) {
        const message = isRecord(reply.error) && typeof reply.error.message === "string" ? reply.error.message : "";
        return { ok: false, error: localFailure("unreachable", message) };
      }
      return readToolReply(reply.result, schema);
    },
    fileDelivery: () => delivery,
    async deliverFile(file) {
      if (delivery === "none" || !(await connected)) return false;
      const reply =
        delivery === "link"
          ? await request("ui/open-link", { url: file.url })
          : await request("ui/download-file", {
              contents: [
                file.data === undefined
                  ? { type: "resource_link", uri: file.url, name: file.fileName, mimeType: file.mimeType }
                  : { type: "resource", resource: { uri: file.url, mimeType: file.mimeType, blob: file.data } },
              ],
            });
      return reply.error === undefined && !(isRecord(reply.result) && reply.result.isError === true);
    },
    async setWidgetState() {
      // the standard keeps no widget state: a widget shown again reads its job from the events
    },
    async requestDisplayMode(mode) {
      if (!(await connected) || !globals.get().displayModes.includes(mode)) return;
      const reply = await request("ui/request-display-mode", { mode });
      const granted = isRecord(reply.result) ? reply.result.mode : undefined;
      if (isDisplayMode(granted)) globals.update({ displayMode: granted });
    },
    onTeardown(listener) {
      teardown.add(listener);
    },
    dispose() {
      stopListening();
      stopSize();
      pending.clear();
    },
  };
}
