/** The host of this window, and how components reach it: `useHost` and `useHostGlobal`, never a host API. */
import { createContext, useContext, useSyncExternalStore } from "react";
import { withCallLane } from "./call-lane.js";
import type { Host, HostGlobals } from "./host.js";
import { createMcpAppsHost } from "./hosts/mcp-apps.js";
import { createOpenAiHost } from "./hosts/openai.js";

/**
 * ChatGPT's `window.openai` where present (widget state and height reports on top of the
 * standard), else the MCP Apps bridge to the parent frame; either way the person's calls go first.
 */
export function createHost(win: Window = window): Host {
  return withCallLane(Reflect.get(win, "openai") ? createOpenAiHost(win) : createMcpAppsHost(win));
}

export const HostContext = createContext<Host | null>(null);

export function useHost(): Host {
  const host = useContext(HostContext);
  if (host === null) throw new Error("useHost needs a <HostContext.Provider>");
  return host;
}

export function useHostGlobal<K extends keyof HostGlobals>(key: K): HostGlobals[K] {
  const host = useHost();
  return useSyncExternalStore(host.subscribe, () => host.getGlobals()[key]);
}
