/**
 * The host side of one harness session: an MCP connection in the chosen protocol revision
 * (`mcp/connection.ts`: official v2 client, Streamable HTTP, every message and its request's
 * standard headers tapped into the log), the form actions that call a tool and mount the widget
 * for its result (at a pace, for a bulk analysis), a recent job opened again, the call on screen
 * before a page reload shown again once connected, and the widget's own callTool path, with the
 * fault switches applied and its own starts sent at the pace of the call it shows. The form's
 * calls carry what a quirky host's form adds (`formArguments`), and the widget is given them so. Every start
 * that names a job joins the recent jobs. The connection itself, and a call sent again on a new
 * session when the server has forgotten the old one, are `session-link.ts`'s.
 */
import { handOverFile, type HostFile } from "./mcp/dev-files.js";
import type { Protocol } from "./mcp/connection.js";
import { formArguments } from "./faults/faults.js";
import { createFaultyCaller, type CallTool, type WidgetToolResult } from "./faults/faulty-call.js";
import { TOOL } from "../../shared/tools.js";
import { recentJobOf, reopenedResult, type RecentJob } from "./recent-jobs.js";
import { isRecord } from "../json-values.js";
import { messageOf, SessionLink } from "./session-link.js";
import type { HarnessStore } from "./store.js";

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

/** The request `_meta` key that asks a development server to pause between slices of work (server/dev-pace.ts). */
export const PACE_META_KEY = "giftgenius/paceMs";

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

/** Runs a control's action: busy as `name` meanwhile, a failure said in the problem line. */
async function act(store: HarnessStore, name: string, work: () => Promise<void>) {
  const s = store.getState();
  s.setBusy(name);
  s.setProblem(null);
  try {
    await work();
  } catch (error) {
    store.getState().setProblem(messageOf(error));
  } finally {
    store.getState().setBusy(null);
  }
}

/** A start whose result names a job joins the recent jobs. */
function remember(
  store: HarnessStore,
  call: { name: string; args: Record<string, unknown>; paceMs: number },
  result: WidgetToolResult,
) {
  if (call.name !== TOOL.startBulk) return;
  const { hostKind, protocol } = store.getState();
  const job = recentJobOf(call.args, result.structuredContent, { hostKind, protocol, paceMs: call.paceMs });
  if (job) store.getState().addRecentJob(job);
}

export function createHarnessSession(store: HarnessStore, endpoint: URL): HarnessSession {
  const s = () => store.getState();
  const link: SessionLink = new SessionLink({ store, endpoint, onReady: () => resume() });

  /** Shows the result of `name(args)` in a fresh widget, as a host shows a tool result. */
  async function show(name: string, args: Record<string, unknown>, result: WidgetToolResult, paceMs: number) {
    const widget = await link.widgetFor(name);
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
    await link.watchResult(result.structuredContent);
  }

  /** Shows again the call that was on screen before the page was reloaded; its widget takes up where it was. */
  async function resume() {
    const shown = s().resume;
    if (!shown) return;
    try {
      const widget = await link.widgetFor(shown.toolName);
      s().resumeWidget(widget.html, widget.uri);
      await link.watchResult(shown.toolOutput ?? undefined);
    } catch (error) {
      s().setProblem(messageOf(error));
    }
  }

  // The widget's own start (Try again, Start again, a file it uploaded) goes at the pace of the call it shows.
  const widgetCall: CallTool = async (name, args) => {
    if (name !== TOOL.startBulk) return link.call(name, args);
    const paceMs = s().mount?.paceMs ?? 0;
    const result = await link.call(name, args, paceMeta(paceMs));
    remember(store, { name, args, paceMs }, result);
    return result;
  };

  return {
    connect: link.connect,
    async runTool(name, given, paceMs = 0) {
      const args = formArguments(name, given, s().faults);
      await act(store, name, async () => {
        // as ChatGPT does, the ChatGPT host sends the user's locale with the call as a hint
        const hints = s().hostKind === "openai" ? { "openai/locale": s().locale } : {};
        const all = { ...hints, ...paceMeta(paceMs) };
        const result = await link.call(name, args, Object.keys(all).length > 0 ? all : undefined);
        remember(store, { name, args, paceMs }, result);
        await show(name, args, result, paceMs);
      });
    },
    async reopenJob(job) {
      await act(store, TOOL.waitForJob, async () => {
        const reply = await link.call(TOOL.waitForJob, { jobId: job.jobId, timeoutMs: 0 });
        await show(TOOL.startBulk, job.input ?? {}, reopenedResult(job.jobId, reply), job.paceMs);
      });
    },
    widgetCallTool: createFaultyCaller({
      call: widgetCall,
      config: () => s().faults,
      onDropped: (fault) => s().setFaults({ [fault]: false }),
      note: (method, detail) => s().logNote(method, detail),
    }),
    async handOverFile(file) {
      const handed = await handOverFile(endpoint.origin, file);
      s().logNote("dev/files", { name: file.name, size: file.size, ...handed });
      return handed;
    },
    async setProtocol(protocol) {
      if (protocol === s().protocol && link.connected) return;
      s().setProtocol(protocol);
      await link.connect();
    },
    // Ends the MCP session on the server too (DELETE), rather than leaving it to idle out.
    close: link.disconnect,
  };
}
