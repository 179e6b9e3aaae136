/**
 * The built widget as a `ui://` resource: its URI carries a content hash, so hosts that cache by URI
 * pick up a new build; its `_meta` says CSP, description and border to MCP Apps and ChatGPT alike.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

/** The MCP Apps mime type; ChatGPT renders it too. */
export const WIDGET_MIME_TYPE = "text/html;profile=mcp-app";

export type Widget = ReturnType<typeof loadWidget>;

const DESCRIPTION =
  "Shows gift suggestions, and the live progress and results of a bulk gift analysis. " +
  "It already lists every gift and person, so do not repeat them in the reply.";

const PLACEHOLDER =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>GiftGenius</title></head>' +
  "<body><p>The GiftGenius widget is not built. Run <code>npx vite build</code> and restart the server.</p></body></html>";

/**
 * Reads the built widget once; a missing build yields a placeholder so the server still starts.
 * `domain`: the widget's own origin in hosts that give each app one; unset, their sandbox origin.
 */
export function loadWidget(htmlPath: string, domain?: string) {
  const built = existsSync(htmlPath);
  const html = built ? readFileSync(htmlPath, "utf8") : PLACEHOLDER;
  const hash = createHash("sha256").update(html).digest("hex").slice(0, 8);
  // no outside domains: the build inlines everything, and the widget calls only through the host
  const meta: Record<string, unknown> = {
    ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true, ...(domain ? { domain } : {}) },
    "openai/widgetCSP": { connect_domains: [], resource_domains: [] },
    "openai/widgetDescription": DESCRIPTION,
    "openai/widgetPrefersBorder": true,
    ...(domain ? { "openai/widgetDomain": domain } : {}),
  };
  return {
    uri: `ui://widget/giftgenius.${hash}.html`,
    name: "giftgenius_widget",
    title: "GiftGenius widget",
    description: DESCRIPTION,
    mimeType: WIDGET_MIME_TYPE,
    html,
    meta,
    /** False when the build was missing and a placeholder page is served instead. */
    built,
  };
}

export type ToolUi = {
  /** The host renders the widget for this tool's result, showing these while it runs. */
  renders?: { invoking: string; invoked: string };
  /** The widget calls this tool itself. */
  calledByWidget?: boolean;
  /** Only the widget needs it: keep it out of the model's tool list. */
  hiddenFromModel?: boolean;
};

/** A tool's `_meta` in both forms: MCP Apps (`ui`) and ChatGPT (`openai/*`). */
export function toolMeta(widget: Widget, tool: ToolUi): Record<string, unknown> {
  const ui: Record<string, unknown> = {};
  const meta: Record<string, unknown> = {};
  if (tool.renders) {
    ui.resourceUri = widget.uri;
    meta["openai/outputTemplate"] = widget.uri;
    meta["openai/toolInvocation/invoking"] = tool.renders.invoking;
    meta["openai/toolInvocation/invoked"] = tool.renders.invoked;
  }
  if (tool.calledByWidget || tool.hiddenFromModel) meta["openai/widgetAccessible"] = true;
  if (tool.hiddenFromModel) {
    ui.visibility = ["app"];
    meta["openai/visibility"] = "private";
  }
  return Object.keys(ui).length > 0 ? { ui, ...meta } : meta;
}

/** Whether a tool with this `_meta` (made by `toolMeta`) is rendered by the widget. */
export const rendersWidget = (meta: Record<string, unknown>): boolean =>
  typeof meta["openai/outputTemplate"] === "string";
