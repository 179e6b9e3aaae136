/**
 * The harness's link to the server: one MCP connection at a time in the store's protocol
 * revision, the tool and resource lists it loaded, and tool calls over it. A server that restarted
 * has forgotten the session (404): the link opens a new one and sends the call once more, as the
 * spec asks of a client, however many calls find the old session gone at once.
 */
import { SdkHttpError, type Resource, type Tool } from "@modelcontextprotocol/client";
import { openConnection, type McpConnection } from "./mcp/connection.js";
import { listAllResources, listAllTools, readWidget, widgetUriFor } from "./mcp/widget-resource.js";
import type { WidgetToolResult } from "./faults/faulty-call.js";
import { isRecord } from "../json-values.js";
import type { HarnessStore } from "./store.js";

export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** The server answered 404 to a request that named a session: it no longer knows it. */
const sessionGone = (e: unknown) => e instanceof SdkHttpError && e.status === 404;

/** The tool result as the widget receives it: the server's fields, nothing added. */
function toWidgetResult(raw: Record<string, unknown>): WidgetToolResult {
  const out: WidgetToolResult = { content: Array.isArray(raw.content) ? raw.content : [] };
  if (isRecord(raw.structuredContent)) out.structuredContent = raw.structuredContent;
  if (typeof raw.isError === "boolean") out.isError = raw.isError;
  if (isRecord(raw._meta)) out._meta = raw._meta;
  return out;
}

export type SessionLinkOptions = {
  store: HarnessStore;
  endpoint: URL;
  /** Runs after each connection is ready (the first, and every renewal). */
  onReady: () => Promise<void>;
};

export class SessionLink {
  private connection: McpConnection | null = null;
  private tools: Tool[] = [];
  private resources: Resource[] = [];
  /** The renewal under way, which every call that finds the session gone waits for. */
  private renewing: Promise<void> | null = null;

  constructor(private readonly options: SessionLinkOptions) {}

  private get state() {
    return this.options.store.getState();
  }

  get connected(): boolean {
    return this.connection !== null;
  }

  /** Closes the connection, which ends the MCP session on the server too (DELETE). */
  disconnect = async (): Promise<void> => {
    const c = this.connection;
    this.connection = null;
    await c?.close();
  };

  /** Connects (or reconnects) in the store's protocol revision and loads the tool and resource lists. */
  connect = async (): Promise<void> => {
    const s = () => this.state;
    await this.disconnect().catch(() => undefined);
    s().setConnection({ status: "connecting" });
    let next: McpConnection | null = null;
    try {
      next = await openConnection(this.options.endpoint, s().protocol, {
        message: (direction, message) => s().logMessage(direction, message),
        headers: (id, headers) => s().logHeaders(id, headers),
        note: (method, detail) => s().logNote(method, detail),
        lost: () => {
          if (this.connection === next) s().setConnection({ status: "error", error: "The connection closed" });
        },
      });
      const { client } = next;
      this.tools = await listAllTools(client);
      this.resources = await listAllResources(client);
      this.connection = next;
      const info = client.getServerVersion();
      s().setConnection({
        status: "ready",
        protocol: client.getNegotiatedProtocolVersion() ?? s().protocol,
        sessionId: next.sessionId,
        server: info ? `${info.name} ${info.version}` : "MCP server",
      });
    } catch (error) {
      await next?.close().catch(() => undefined);
      s().setConnection({ status: "error", error: messageOf(error) });
      return;
    }
    await this.options.onReady();
  };

  private renew(lost: string): Promise<void> {
    this.renewing ??= (async () => {
      this.state.logNote("session/lost", { sessionId: lost, then: "a new session, and the call again" });
      await this.connect();
    })().finally(() => (this.renewing = null));
    return this.renewing;
  }

  /** Calls a tool; a call whose session was lost goes again once on the new one. */
  call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) => {
    const request = { name, arguments: args, ...(meta ? { _meta: meta } : {}) };
    if (!this.connection) throw new Error("The harness is not connected to the server");
    const used = this.connection;
    try {
      return toWidgetResult(await used.client.callTool(request));
    } catch (error) {
      // a call cut off by the renewal another call started goes again too
      const renewed = this.connection !== used;
      if (!renewed && !(sessionGone(error) && used.sessionId !== null)) throw error;
      if (renewed) await this.renewing;
      else await this.renew(used.sessionId ?? "");
      if (!this.connection) throw error;
      return toWidgetResult(await this.connection.client.callTool(request));
    }
  };

  /** The widget that renders the tool `name`, as the server lists it now: its ui:// URI and its HTML. */
  widgetFor = async (name: string) => {
    const uri = widgetUriFor(name, this.tools, this.resources);
    if (!uri || !this.connection) throw new Error("The server lists no ui:// widget resource for this tool");
    return { uri, html: (await readWidget(this.connection.client, uri)).html };
  };

  // A host that keeps the result on screen asks for its changes (resources/subscribe, or a listen
  // stream in 2026-07-28); the log then shows resources/updated.
  watchResult = async (structured: Record<string, unknown> | undefined) => {
    const uri = structured?.resultUri;
    if (!this.connection || typeof uri !== "string") return;
    await this.connection
      .watch(uri)
      .catch((error: unknown) => this.state.logNote("watch/failed", { uri, error: messageOf(error) }));
  };
}
