/**
 * The harness's choices for the host it plays: the kinds of host, the height of each display mode,
 * and the globals before any tool call.
 */
import type { DisplayMode, OpenAiGlobals } from "../../host-globals.js";

/** The hosts the harness plays: ChatGPT (`window.openai`) or a standard MCP Apps host (`AppBridge`). */
export const HOST_KINDS = ["openai", "mcp-apps"] as const;
export type HostKind = (typeof HOST_KINDS)[number];

/** The height a widget may use in each display mode (ChatGPT gives inline widgets a bounded box). */
export function maxHeightFor(mode: DisplayMode): number {
  return mode === "inline" ? 560 : mode === "pip" ? 420 : 900;
}

/** Globals before any tool call: a desktop browser with hover, no insets. */
export function defaultGlobals(): OpenAiGlobals {
  return {
    theme: "light",
    locale: "en-US",
    displayMode: "inline",
    maxHeight: maxHeightFor("inline"),
    userAgent: { device: { type: "desktop" }, capabilities: { hover: true, touch: false } },
    safeArea: { insets: { top: 0, bottom: 0, left: 0, right: 0 } },
    toolInput: {},
    toolOutput: null,
    toolResponseMetadata: null,
    widgetState: null,
  };
}
