/**
 * Generates the `window.openai` stand-in that the harness injects at the start of the widget's
 * <head>. It holds the globals, forwards calls to the harness over postMessage (answered by id),
 * fires `openai:set_globals` when the harness changes globals, and reports the content height,
 * as ChatGPT does.
 */
import type { OpenAiGlobals } from "../../host-globals.js";

export type StandinConfig = {
  globals: OpenAiGlobals;
  /** The harness's origin: the only target and the only accepted sender of messages. */
  parentOrigin: string;
  channel: string;
};

/**
 * The stand-in itself. It is serialized with `toString()` into the widget document, so it must
 * reference nothing outside its own body: everything it needs comes in `cfg` and `watchHeight`.
 */
function installStandin(cfg: StandinConfig, watchHeight: (notify: (height: number) => void) => void): void {
  type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
  const host = window.parent;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  const fire = (globals: Record<string, unknown>) =>
    window.dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals } }));
  const call = (op: string, payload: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      try {
        host.postMessage({ channel: cfg.channel, type: "call", id, op, payload }, cfg.parentOrigin);
      } catch (error) {
        pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  const quiet = (p: Promise<unknown>) => void p.catch(() => undefined);
  const openai: Record<string, unknown> = {
    ...cfg.globals,
    callTool: (name: string, args?: Record<string, unknown>) => call("callTool", { name, args: args ?? {} }),
    setWidgetState: (state: unknown) => {
      openai.widgetState = state;
      fire({ widgetState: state });
      return call("setWidgetState", { state }).then(() => undefined);
    },
    requestDisplayMode: (args: { mode?: unknown } | undefined) => call("requestDisplayMode", { mode: args?.mode }),
    sendFollowUpMessage: (args: { prompt?: unknown } | undefined) =>
      call("sendFollowUpMessage", { prompt: args?.prompt }).then(() => undefined),
    openExternal: (args: { href?: unknown } | undefined) => quiet(call("openExternal", { href: args?.href })),
    // like ChatGPT's, it takes images only (image/png, image/jpeg, image/webp, per the Apps SDK reference)
    uploadFile: (file: unknown) => {
      const type = file instanceof Blob ? file.type : "";
      if (!(file instanceof Blob) || !["image/png", "image/jpeg", "image/webp"].includes(type))
        return Promise.reject(
          new Error(`uploadFile takes images only (PNG, JPEG or WebP), not ${type || "this file"}`),
        );
      const name = file instanceof File ? file.name : "image";
      return call("uploadFile", { name, type, size: file.size });
    },
    notifyIntrinsicHeight: (height: unknown) => quiet(call("notifyIntrinsicHeight", { height })),
  };
  window.addEventListener("message", (event: MessageEvent) => {
    if (event.source !== host || event.origin !== cfg.parentOrigin) return;
    const data: unknown = event.data;
    if (typeof data !== "object" || data === null) return;
    const m = data as {
      channel?: unknown;
      type?: unknown;
      id?: unknown;
      ok?: unknown;
      value?: unknown;
      error?: unknown;
      globals?: unknown;
    };
    if (m.channel !== cfg.channel) return;
    if (m.type === "reply" && typeof m.id === "number") {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.ok === true) p.resolve(m.value);
      else p.reject(new Error(typeof m.error === "string" ? m.error : "The host could not complete the call"));
    } else if (m.type === "globals" && typeof m.globals === "object" && m.globals !== null) {
      const globals = m.globals as Record<string, unknown>;
      Object.assign(openai, globals);
      fire(globals);
    }
  });
  (window as unknown as { openai: unknown }).openai = openai;

  // Like ChatGPT's frame runtime, report the document's height so an inline frame fits its content.
  watchHeight((height) => quiet(call("notifyIntrinsicHeight", { height })));
}

/**
 * Reports the document's height whenever it changes. Serialized beside `installStandin` and
 * handed to it, so it too references nothing outside its own body.
 */
function watchHeight(notify: (height: number) => void): void {
  if (typeof ResizeObserver === "function") {
    let reported = 0;
    const report = () => {
      // The body, not the root: the root is never shorter than the frame, so it could only grow.
      const body = document.body;
      if (!body) return;
      const style = getComputedStyle(body);
      const height = Math.ceil(
        body.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom),
      );
      if (height === reported) return;
      reported = height;
      notify(height);
    };
    const observe = () => {
      if (document.body) new ResizeObserver(report).observe(document.body);
      report();
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", observe, { once: true });
    else observe();
  }
}

/** JSON that is safe inside a <script> element: no `</script>`, no `<!--`, no line separators. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The stand-in as the source text of a classic script that runs before anything else. */
export function createStandinScript(config: StandinConfig): string {
  return `(${installStandin.toString()})(${scriptSafeJson(config)}, ${watchHeight.toString()});`;
}

/**
 * Puts `script` first inside the widget's <head> (or creates a <head> there is none), so
 * `window.openai` exists before the widget's own scripts run.
 */
export function injectStandin(html: string, script: string): string {
  const tag = `<script data-harness="openai-standin">${script}</script>`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length);
  const root = /<html(\s[^>]*)?>/i.exec(html);
  if (root)
    return html.slice(0, root.index + root[0].length) + `<head>${tag}</head>` + html.slice(root.index + root[0].length);
  return `<head>${tag}</head>${html}`;
}
