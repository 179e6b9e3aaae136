/**
 * The host adapter for MCP Apps (ext-apps, spec 2026-01-26): JSON-RPC over postMessage with the parent,
 * each optional feature used where `hostCapabilities` lists it. By hand: the package's `App` class brings
 * zod and the SDK's protocol layer (about 111 KB gzipped, more than the whole widget).
 */
import { isDisplayMode } from "../../host-globals.js";
import { isRecord } from "../../json-values.js";
import { createGlobals, type Conversation, type FileDelivery, type Host, type HostGlobals } from "../host.js";
import { localFailure, readToolReply } from "../tool-reply.js";
import { observeSize } from "./size.js";

/** Where JSON-RPC messages go and come from: the parent frame, or a test's in-memory pair. */
export type Port = { post(message: object): void; listen(receive: (message: unknown) => void): () => void };

type Reply = { result?: unknown; error?: unknown };
type Id = number | string;
const isId = (id: unknown): id is Id => typeof id === "number" || typeof id === "string";

/** A JSON-RPC 2.0 peer over `port`; `onRequest` and `onNotification` hear what the other side sends. */
function jsonRpcPeer(
  port: Port,
  onRequest: (id: Id, method: string) => void,
  onNotification: (method: string, params: unknown) => void,
) {
  const pending = new Map<Id, (reply: Reply) => void>();
  let nextId = 1;
  const stopListening = port.listen((raw) => {
    if (!isRecord(raw) || raw.jsonrpc !== "2.0") return;
    const { id, method } = raw;
    if (typeof method === "string") return isId(id) ? onRequest(id, method) : onNotification(method, raw.params);
    if (isId(id)) {
      pending.get(id)?.({ result: raw.result, error: raw.error });
      pending.delete(id);
    }
  });
  return {
    /** Resolves with the reply (a result or an error), never rejects. */
    request: (method: string, params: unknown): Promise<Reply> =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        port.post({ jsonrpc: "2.0", id, method, params });
      }),
    notify: (method: string, params: unknown = {}) => port.post({ jsonrpc: "2.0", method, params }),
    reply: (id: Id, answer: Reply) => port.post({ jsonrpc: "2.0", id, ...answer }),
    /** Replies still outstanding are never resolved. */
    close() {
      stopListening();
      pending.clear();
    },
  };
}
type JsonRpcPeer = ReturnType<typeof jsonRpcPeer>;

export const PROTOCOL_VERSION = "2026-01-26";
/** How long to wait for a host to answer `ui/initialize` before saying there is none. */
const CONNECT_TIMEOUT_MS = 5_000;

/** The parent frame as a port: only its messages are heard. */
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

function fromContext(context: unknown): Partial<HostGlobals> {
  if (!isRecord(context)) return {};
  const out: Partial<HostGlobals> = {};
  if (context.theme === "light" || context.theme === "dark") out.theme = context.theme;
  if (typeof context.locale === "string" && context.locale !== "") {
    out.locale = context.locale;
    out.localeFromHost = true;
  }
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

/** What each notification from the host changes (a `Map`: a method named like `toString` changes nothing). */
const CHANGES = new Map<string, (p: Record<string, unknown>) => Partial<HostGlobals>>([
  ["ui/notifications/tool-input", (p) => ({ toolInput: p.arguments ?? null })],
  [
    "ui/notifications/tool-result",
    (p) => ({ toolOutput: p.structuredContent ?? null, toolResponseMetadata: p._meta ?? null }),
  ],
  ["ui/notifications/tool-cancelled", () => ({ toolCancelled: true })],
  ["ui/notifications/host-context-changed", fromContext],
]);

/** The host's `ui/initialize` result, or null when there is no host or it did not answer in time. */
async function initialize(win: Window, peer: JsonRpcPeer): Promise<Record<string, unknown> | null> {
  if (win.parent === win) return null;
  const timeout = new Promise<null>((resolve) => win.setTimeout(() => resolve(null), CONNECT_TIMEOUT_MS));
  const reply = await Promise.race([
    peer.request("ui/initialize", {
      protocolVersion: PROTOCOL_VERSION,
      appInfo: { name: "GiftGenius", version: "0.1.0" },
      appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
    }),
    timeout,
  ]);
  return reply !== null && isRecord(reply.result) ? reply.result : null;
}

/** A request the host carried out: answered, and not with `isError`. */
const done = (reply: Reply): boolean =>
  reply.error === undefined && !(isRecord(reply.result) && reply.result.isError === true);

const text = (t: string) => [{ type: "text", text: t }];

export function createMcpAppsHost(win: Window, port: Port = parentPort(win)): Host {
  const globals = createGlobals();
  const teardown = new Set<() => void>();
  let stopSize = () => {};
  let delivery: FileDelivery = "none";
  let conversation: Conversation = { modelContext: false, followUp: false };

  const peer = jsonRpcPeer(
    port,
    (id, method) => {
      if (method === "ui/resource-teardown") {
        for (const listener of [...teardown]) listener();
        teardown.clear();
      }
      if (method === "ui/resource-teardown" || method === "ping") return peer.reply(id, { result: {} });
      peer.reply(id, { error: { code: -32601, message: `Method not found: ${method}` } });
    },
    (method, params) => globals.update(CHANGES.get(method)?.(isRecord(params) ? params : {}) ?? {}),
  );

  // the handshake: nothing else is sent to the host before it has answered
  const connected = initialize(win, peer).then((result) => {
    if (result === null) {
      globals.update({ connection: "none" });
      return false;
    }
    const caps = isRecord(result.hostCapabilities) ? result.hostCapabilities : {};
    delivery = caps.downloadFile ? "embedded" : caps.openLinks ? "link" : "none";
    conversation = { modelContext: isRecord(caps.updateModelContext), followUp: isRecord(caps.message) };
    globals.update({ ...fromContext(result.hostContext), connection: "ready" });
    peer.notify("ui/notifications/initialized");
    stopSize = observeSize(win, (size) => peer.notify("ui/notifications/size-changed", size));
    return true;
  });
  /** Asks what the host offers for the conversation, once connected; true when it was carried out. */
  const ask = async (offer: keyof Conversation, method: string, params: unknown) =>
    (await connected) && conversation[offer] && done(await peer.request(method, params));

  return {
    getGlobals: globals.get,
    subscribe: globals.subscribe,
    async callTool(name, args, schema) {
      if (!(await connected)) return { ok: false, error: localFailure("unreachable", "No MCP Apps host answered.") };
      const reply = await peer.request("tools/call", { name, arguments: args });
      if (reply.error !== undefined) {
        const message = isRecord(reply.error) && typeof reply.error.message === "string" ? reply.error.message : "";
        return { ok: false, error: localFailure("unreachable", message) };
      }
      return readToolReply(reply.result, schema);
    },
    fileDelivery: () => delivery,
    async deliverFile(file) {
      if (delivery === "none" || !(await connected)) return false;
      if (delivery === "link") return done(await peer.request("ui/open-link", { url: file.url }));
      // a download: its bytes, or a link to fetch
      return done(
        await peer.request("ui/download-file", {
          contents: [
            file.data === undefined
              ? { type: "resource_link", uri: file.url, name: file.fileName, mimeType: file.mimeType }
              : { type: "resource", resource: { uri: file.url, mimeType: file.mimeType, blob: file.data } },
          ],
        }),
      );
    },
    // the standard keeps no widget state: a widget shown again reads its job from the events
    setWidgetState: async () => {},
    async requestDisplayMode(mode) {
      if (!(await connected) || !globals.get().displayModes.includes(mode)) return;
      const reply = await peer.request("ui/request-display-mode", { mode });
      const granted = isRecord(reply.result) ? reply.result.mode : undefined;
      if (isDisplayMode(granted)) globals.update({ displayMode: granted });
    },
    conversation: () => conversation,
    updateModelContext: ({ text: t, structured }) =>
      ask("modelContext", "ui/update-model-context", { content: text(t), structuredContent: structured }),
    sendFollowUp: (message) => ask("followUp", "ui/message", { role: "user", content: text(message) }),
    onTeardown: (listener) => void teardown.add(listener),
    dispose() {
      peer.close();
      stopSize();
    },
  };
}
