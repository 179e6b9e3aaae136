/**
 * What a host tells a widget, shared by the widget (which reads it) and the harness (which plays
 * the host): the display vocabulary of both kinds of host, and the globals ChatGPT puts on
 * `window.openai` (the Apps SDK's `OpenAiGlobals`).
 */
export type Theme = "light" | "dark";
export const DISPLAY_MODES = ["inline", "fullscreen", "pip"] as const;
export type DisplayMode = (typeof DISPLAY_MODES)[number];
export const isDisplayMode = (x: unknown): x is DisplayMode => DISPLAY_MODES.includes(x as DisplayMode);

/** The globals on `window.openai`. The widget reads each through its own parsing; never trusted as typed. */
export type OpenAiGlobals = {
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

/** The window event ChatGPT fires when globals change; `detail.globals` holds what changed. */
export const SET_GLOBALS_EVENT = "openai:set_globals";
/**
 * The same event under the name hosts that emulate ChatGPT fire (MCPJam, Skybridge: the Apps
 * SDK's earlier name); some post it to the frame as a message `{ type, globals }` instead.
 */
export const LEGACY_SET_GLOBALS_EVENT = "webplus:set_globals";
