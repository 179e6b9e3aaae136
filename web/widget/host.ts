/**
 * The host as the widget sees it: one `Host` interface with one adapter per kind of host, the
 * MCP Apps bridge (`hosts/mcp-apps.ts`, every standard host) and ChatGPT's `window.openai`
 * (`hosts/openai.ts`). Nothing else in the widget knows which one it runs in. Globals become a
 * snapshot React reads with useSyncExternalStore; tool replies come back parsed, never cast; the
 * person's calls go before the long poll (call-lane.ts).
 */
import { createContext, useContext, useSyncExternalStore } from "react";
import type * as z from "zod/mini";
import type { ExportResult, FILE_TOOL } from "../../shared/files.js";
import type { ToolName } from "../../shared/tools.js";
import type { DisplayMode, Theme } from "../host-globals.js";
import { withCallLane } from "./call-lane.js";
import { createMcpAppsHost } from "./hosts/mcp-apps.js";
import { createOpenAiHost } from "./hosts/openai.js";
import type { ToolOutcome } from "./tool-reply.js";

/** What the widget reads from the host. Object-valued globals stay `unknown` until a schema parses them. */
export type HostGlobals = {
  /** "connecting" until the host answered, "none" when no host is there. */
  connection: "connecting" | "ready" | "none";
  toolInput: unknown;
  toolOutput: unknown;
  toolResponseMetadata: unknown;
  /** Set when the host canceled the tool call this widget belongs to. */
  toolCancelled: boolean;
  widgetState: unknown;
  theme: Theme;
  displayMode: DisplayMode;
  /** The display modes the host offers; the widget asks only for those. */
  displayModes: readonly DisplayMode[];
  maxHeight: number | null;
  locale: string;
};

/** Every tool the widget calls: the job tools and the app-only file tools. */
export type WidgetToolName = ToolName | (typeof FILE_TOOL)[keyof typeof FILE_TOOL];

/**
 * How a host hands the person a file: "embedded" takes the file's bytes (MCP Apps
 * `ui/download-file`), "link" opens its URL (ChatGPT's `openExternal`, MCP Apps `ui/open-link`),
 * "none" leaves the widget to show the link.
 */
export type FileDelivery = "embedded" | "link" | "none";

export type Host = {
  getGlobals(): HostGlobals;
  subscribe(listener: () => void): () => void;
  callTool<T>(name: WidgetToolName, args: Record<string, unknown>, schema: z.ZodMiniType<T>): Promise<ToolOutcome<T>>;
  /** What this host offers for files, known once connected. */
  fileDelivery(): FileDelivery;
  /** Hands an exported file to the person the host's way; false when the host refused or failed. */
  deliverFile(file: ExportResult): Promise<boolean>;
  /** Kept across renders where the host keeps widget state (ChatGPT); elsewhere it is dropped. */
  setWidgetState(state: Record<string, unknown>): Promise<void>;
  requestDisplayMode(mode: DisplayMode): Promise<void>;
  /** Called once when the host tears the widget down. */
  onTeardown(listener: () => void): void;
  /** Stops listening to the window and the host. */
  dispose(): void;
};

export const INITIAL_GLOBALS: HostGlobals = {
  connection: "connecting",
  toolInput: null,
  toolOutput: null,
  toolResponseMetadata: null,
  toolCancelled: false,
  widgetState: null,
  theme: "light",
  displayMode: "inline",
  displayModes: ["inline"],
  maxHeight: null,
  locale: "en",
};

/**
 * The host for this window: ChatGPT's `window.openai` where it is present (it gives widget state
 * and height reports on top of the standard), otherwise the MCP Apps bridge to the parent frame;
 * either way the person's calls go first.
 */
export function createHost(win: Window = window): Host {
  return withCallLane(Reflect.get(win, "openai") ? createOpenAiHost(win) : createMcpAppsHost(win));
}

/** Globals kept as a snapshot, with listeners told when it changes; adapters build on it. */
export function createGlobals(initial: HostGlobals) {
  let globals = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => globals,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Applies what changed; listeners hear of it only when some value really changed. */
    update(changes: Partial<HostGlobals>) {
      const next = { ...globals, ...changes };
      if ((Object.keys(changes) as (keyof HostGlobals)[]).every((k) => next[k] === globals[k])) return;
      globals = next;
      for (const l of listeners) l();
    },
  };
}

/** Carries the host from <App> to the components. */
export const HostContext = createContext<Host | null>(null);

/** The host given to <App>; components use this, never a host API. */
export function useHost(): Host {
  const host = useContext(HostContext);
  if (host === null) throw new Error("useHost needs a <HostContext.Provider>");
  return host;
}

/** One host global, re-rendering only when that global changes. */
export function useHostGlobal<K extends keyof HostGlobals>(key: K): HostGlobals[K] {
  const host = useHost();
  return useSyncExternalStore(host.subscribe, () => host.getGlobals()[key]);
}
