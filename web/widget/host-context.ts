/**
 * The host of this window and how it reaches the components: `createHost` picks the adapter (the
 * person's calls going before the long poll, call-lane.ts), `<HostContext.Provider>` carries it
 * from <App>, and components read it with `useHost` and `useHostGlobal` (a snapshot React reads
 * with useSyncExternalStore), never through a host API.
 */
import { createContext, useContext, useSyncExternalStore } from "react";
import { withCallLane } from "./call-lane.js";
import type { Host, HostGlobals } from "./host.js";
import { createMcpAppsHost } from "./hosts/mcp-apps.js";
import { createOpenAiHost } from "./hosts/openai.js";

/**
 * The host for this window: ChatGPT's `window.openai` where it is present (it gives widget state
 * and height reports on top of the standard), otherwise the MCP Apps bridge to the parent frame;
 * either way the person's calls go first.
 */
export function createHost(win: Window = window): Host {
  return withCallLane(Reflect.get(win, "openai") ? createOpenAiHost(win) : createMcpAppsHost(win));
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
