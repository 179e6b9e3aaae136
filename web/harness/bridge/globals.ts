/**
 * The globals a host puts on `window.openai`, in the shape of the Apps SDK (`OpenAiGlobals`):
 * visuals, layout, and the state of the tool call the widget belongs to.
 */
export type Theme = "light" | "dark";
export type DisplayMode = "inline" | "fullscreen" | "pip";

export type HostGlobals = {
  theme: Theme;
  locale: string;
  displayMode: DisplayMode;
  maxHeight: number;
  userAgent: {
    device: { type: "desktop" | "mobile" | "tablet" | "unknown" };
    capabilities: { hover: boolean; touch: boolean };
  };
  safeArea: { insets: { top: number; bottom: number; left: number; right: number } };
  toolInput: Record<string, unknown>;
  toolOutput: Record<string, unknown> | null;
  toolResponseMetadata: Record<string, unknown> | null;
  widgetState: unknown;
};

/** The height a widget may use in each display mode (ChatGPT gives inline widgets a bounded box). */
export function maxHeightFor(mode: DisplayMode): number {
  return mode === "inline" ? 560 : mode === "pip" ? 420 : 900;
}

/** Globals before any tool call: a desktop browser with hover, no insets. */
export function defaultGlobals(): HostGlobals {
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
