/**
 * The host side of one harness session: an MCP connection in the chosen protocol revision
 * (`mcp/connection.ts`: official v2 client, Streamable HTTP, every message and its request's
 * standard headers tapped into the log), the form actions that call a tool and mount the widget
 * for its result (at a pace, for a bulk analysis), a recent job opened again, the call on screen
 * before a page reload shown again once connected, and the widget's own callTool path, with the
 * fault switches applied and its own starts sent at the pace of the call it shows. Every start
 * that names a job joins the recent jobs. A server that restarted has forgotten the session (404):
 * the harness opens a new one and sends the call once more, as the spec asks of a client, so a
 * widget following a job goes on by itself.
 */
import { SdkHttpError, type Resource, type Tool } from "@modelcontextprotocol/client";
import { handOverFile, type HostFile } from "./mcp/dev-files.js";
import { openConnection, type McpConnection, type Protocol } from "./mcp/connection.js";
import { listAllResources, readWidget, widgetUriFor } from "./mcp/widget-resource.js";
import { createFaultyCaller, type CallTool, type WidgetToolResult } from "./faults/faulty-call.js";
import { PACE_META_KEY, TOOL } from "../../shared/tools.js";
import { recentJobOf, reopenedResult, type RecentJob } from "./recent-jobs.js";
import type { HarnessStore } from "./store.js";
import { isRecord } from "../json-values.js";

export type HarnessSession = {
  /**
   * Connects (or reconnects) in the store's protocol revision and loads the tool and resource
   * lists; then shows again the call that was on screen before the page was reloaded, if any.
   */
  connect(): Promise<void>;
  /** Chooses another protocol revision and reconnects in it; a mounted widget goes on over the new connection. */
  setProtocol(protocol: Protocol): Promise<void>;
  /** Calls a tool as the model would (a bulk analysis at `paceMs`), then shows its result in a fresh widget. */
  runTool(name: string, args: Record<string, unknown>, paceMs?: number): Promise<void>;
  /** Shows a recent job in a fresh widget as its start would have, with its status as the server has it now. */
  reopenJob(job: RecentJob): Promise<void>;
  /** What the widget's `window.openai.callTool` reaches. */
  widgetCallTool: CallTool;
  /** Hands a file to the server's development file service, as ChatGPT hands a user's file to its own. */
  handOverFile(file: File): Promise<HostFile>;
  /** Ends the session on the server and closes the connection. */
  close(): Promise<void>;
};

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
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

/** The request `_meta` that asks a development server to pause `paceMs` between slices of work. */
const paceMeta = (paceMs: number) => (paceMs > 0 ? { [PACE_META_KEY]: paceMs } : undefined);

/** The text of an `isError` result, for the controls' problem line. */
function errorText(result: WidgetToolResult): string {
  const text = result.content
    .map((c) => (isRecord(c) && typeof c.text === "string" ? c.text : ""))
    .join(" ")
    .trim();
  return text || "The tool reported an error";
}

export function createHarnessSession(store: HarnessStore, endpoint: URL): HarnessSession {
  let connection: McpConnection | null = null;
  let tools: Tool[] = [];
  let resources: Resource[] = [];
  const s = () => store.getState();

  /** One new session however many calls find the old one gone at once. */
  let renewing: Promise<void> | null = null;
  const renew = (lost: string) => {
    renewing ??= (async () => {
      s().logNote("session/lost", { sessionId: lost, then: "a new session, and the call again" });
      await connect();
    })().finally(() => (renewing = null));
    return renewing;
  };

  const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) => {
    const request = { name, arguments: args, ...(meta ? { _meta: meta } : {}) };
    if (!connection) throw new Error("The harness is not connected to the server");
    const used = connection;
    try {
      return toWidgetResult(await used.client.callTool(request));
    } catch (error) {
      // a call cut off by the renewal another call started goes again too
      const renewed = connection !== used;
      if (!renewed && !(sessionGone(error) && used.sessionId !== null)) throw error;
      if (renewed) await renewing;
      else await renew(used.sessionId ?? "");
      if (!connection) throw error;
      return toWidgetResult(await connection.client.callTool(request));
    }
  };

  async function disconnect() {
    const c = connection;
    connection = null;
    await c?.close();
  }

  async function connect() {
    await disconnect().catch(() => undefined);
    s().setConnection({ status: "connecting" });
    let next: McpConnection | null = null;
    try {
      next = await openConnection(endpoint, s().protocol, {
        message: (direction, message) => s().logMessage(direction, message),
        headers: (id, headers) => s().logHeaders(id, headers),
        note: (method, detail) => s().logNote(method, detail),
        lost: () => {
          if (connection === next) s().setConnection({ status: "error", error: "The connection closed" });
        },
      });
      const { client } = next;
      tools = [];
      for (let cursor: string | undefined, first = true; first || cursor; first = false) {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        tools.push(...page.tools);
        cursor = page.nextCursor;
      }
      resources = await listAllResources(client);
      connection = next;
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
    await resume();
  }

  /** Runs a control's action: busy as `name` meanwhile, a failure said in the problem line. */
  async function act(name: string, work: () => Promise<void>) {
    s().setBusy(name);
    s().setProblem(null);
    try {
      await work();
    } catch (error) {
      s().setProblem(messageOf(error));
    } finally {
      s().setBusy(null);
    }
  }

  /** A start whose result names a job joins the recent jobs. */
  function remember(name: string, args: Record<string, unknown>, result: WidgetToolResult, paceMs: number) {
    if (name !== TOOL.startBulk) return;
    const { hostKind, protocol } = s();
    const job = recentJobOf(args, result.structuredContent, { hostKind, protocol, paceMs });
    if (job) s().addRecentJob(job);
  }

  /** The widget that renders the tool `name`, as the server lists it now: its ui:// URI and its HTML. */
  async function widgetFor(name: string) {
    const uri = widgetUriFor(name, tools, resources);
    if (!uri || !connection) throw new Error("The server lists no ui:// widget resource for this tool");
    return { uri, html: (await readWidget(connection.client, uri)).html };
  }

  /** Shows the result of `name(args)` in a fresh widget, as a host shows a tool result. */
  async function show(name: string, args: Record<string, unknown>, result: WidgetToolResult, paceMs: number) {
    const widget = await widgetFor(name);
    s().mountWidget({
      toolName: name,
      toolInput: args,
      toolOutput: result.structuredContent ?? null,
      toolResponseMetadata: result._meta ?? null,
      toolContent: result.content,
      isError: result.isError === true,
      widgetUri: widget.uri,
      html: widget.html,
      paceMs,
    });
    if (result.isError) s().setProblem(errorText(result));
    await watchResult(result.structuredContent);
  }

  async function runTool(name: string, args: Record<string, unknown>, paceMs = 0) {
    await act(name, async () => {
      // as ChatGPT does, the ChatGPT host sends the user's locale with the call as a hint
      const hints = s().hostKind === "openai" ? { "openai/locale": s().locale } : {};
      const all = { ...hints, ...paceMeta(paceMs) };
      const result = await call(name, args, Object.keys(all).length > 0 ? all : undefined);
      remember(name, args, result, paceMs);
      await show(name, args, result, paceMs);
    });
  }

  async function reopenJob(job: RecentJob) {
    await act(TOOL.waitForJob, async () => {
      const reply = await call(TOOL.waitForJob, { jobId: job.jobId, timeoutMs: 0 });
      await show(TOOL.startBulk, job.input ?? {}, reopenedResult(job.jobId, reply), job.paceMs);
    });
  }

  /** Shows again the call that was on screen before the page was reloaded; its widget takes up where it was. */
  async function resume() {
    const shown = s().resume;
    if (!shown) return;
    try {
      const widget = await widgetFor(shown.toolName);
      s().resumeWidget(widget.html, widget.uri);
      await watchResult(shown.toolOutput ?? undefined);
    } catch (error) {
      s().setProblem(messageOf(error));
    }
  }

  // A host that keeps the result on screen asks for its changes (resources/subscribe, or a listen
  // stream in 2026-07-28); the log then shows resources/updated.
  async function watchResult(structured: Record<string, unknown> | undefined) {
    const uri = structured?.resultUri;
    if (!connection || typeof uri !== "string") return;
    await connection
      .watch(uri)
      .catch((error: unknown) => s().logNote("watch/failed", { uri, error: messageOf(error) }));
  }

  // The widget's own start (Try again, Start again, a file it uploaded) goes at the pace of the call it shows.
  const widgetCall: CallTool = async (name, args) => {
    if (name !== TOOL.startBulk) return call(name, args);
    const paceMs = s().mount?.paceMs ?? 0;
    const result = await call(name, args, paceMeta(paceMs));
    remember(name, args, result, paceMs);
    return result;
  };

  const widgetCallTool = createFaultyCaller({
    call: widgetCall,
    config: () => s().faults,
    onDropped: (fault) => s().setFaults({ [fault]: false }),
    note: (method, detail) => s().logNote(method, detail),
  });

  return {
    connect,
    runTool,
    reopenJob,
    widgetCallTool,
    async handOverFile(file) {
      const handed = await handOverFile(endpoint.origin, file);
      s().logNote("dev/files", { name: file.name, size: file.size, ...handed });
      return handed;
    },
    async setProtocol(protocol) {
      if (protocol === s().protocol && connection) return;
      s().setProtocol(protocol);
      await connect();
    },
    // Ends the MCP session on the server too (DELETE), rather than leaving it to idle out.
    close: disconnect,
  };
}
