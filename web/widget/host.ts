/**
 * The host bridge: the one module that touches `window.openai` (ChatGPT's Apps SDK surface).
 * Globals become a snapshot React reads with useSyncExternalStore, refreshed by the
 * `openai:set_globals` event; tool calls come back parsed by the shared schemas, never cast.
 */
import { createContext, useContext, useSyncExternalStore } from "react";
import type * as z from "zod/mini";
import type { ToolName } from "../../shared/tools.js";
import { localFailure, readToolReply, type ToolOutcome } from "./tool-reply.js";

export type Theme = "light" | "dark";
export type DisplayMode = "inline" | "pip" | "fullscreen";
/** What the widget reads from the host. Object-valued globals stay `unknown` until a schema parses them. */
export type HostGlobals = {
  available: boolean;
  toolInput: unknown;
  toolOutput: unknown;
  toolResponseMetadata: unknown;
  widgetState: unknown;
  theme: Theme;
  displayMode: DisplayMode;
  maxHeight: number | null;
  locale: string;
};

export type Host = {
  getGlobals(): HostGlobals;
  subscribe(listener: () => void): () => void;
  callTool<T>(name: ToolName, args: Record<string, unknown>, schema: z.ZodMiniType<T>): Promise<ToolOutcome<T>>;
  setWidgetState(state: Record<string, unknown>): Promise<void>;
  requestDisplayMode(mode: DisplayMode): Promise<void>;
  sendFollowUpMessage(prompt: string): Promise<void>;
  /** Stops listening to the window. */
  dispose(): void;
};

/** The window event a host fires when globals change; `detail.globals` holds what changed. */
export const SET_GLOBALS_EVENT = "openai:set_globals";
const KEYS = [
  "toolInput",
  "toolOutput",
  "toolResponseMetadata",
  "widgetState",
  "theme",
  "displayMode",
  "maxHeight",
  "locale",
] as const;

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null;
const asRecord = (x: unknown): Record<string, unknown> | null => (isRecord(x) ? x : null);

function snapshot(openai: Record<string, unknown> | null, changed: Record<string, unknown>): HostGlobals {
  const get = (k: (typeof KEYS)[number]) => (k in changed ? changed[k] : openai?.[k]);
  const mode = get("displayMode");
  const height = get("maxHeight");
  const locale = get("locale");
  return {
    available: openai !== null,
    toolInput: get("toolInput") ?? null,
    toolOutput: get("toolOutput") ?? null,
    toolResponseMetadata: get("toolResponseMetadata") ?? null,
    widgetState: get("widgetState") ?? null,
    theme: get("theme") === "dark" ? "dark" : "light",
    displayMode: mode === "pip" || mode === "fullscreen" ? mode : "inline",
    maxHeight: typeof height === "number" && height > 0 ? height : null,
    locale: typeof locale === "string" && locale !== "" ? locale : "en",
  };
}

/** Builds the bridge over `win.openai`; where it is absent, `available` is false and calls fail. */
export function createHost(win: Window = window): Host {
  const openai = () => asRecord(Reflect.get(win, "openai"));
  const listeners = new Set<() => void>();
  // What the events reported so far: the latest news wins over a window.openai not yet updated.
  const reported: Record<string, unknown> = {};
  let globals = snapshot(openai(), reported);
  const onGlobals = (event: Event) => {
    const detail = asRecord(Reflect.get(event, "detail"));
    Object.assign(reported, asRecord(detail?.globals));
    const next = snapshot(openai(), reported);
    if (KEYS.some((k) => next[k] !== globals[k]) || next.available !== globals.available) {
      globals = next;
      for (const l of listeners) l();
    }
  };
  win.addEventListener(SET_GLOBALS_EVENT, onGlobals);

  /** Calls a host method by name; a missing host or method rejects, like a failed call. */
  const invoke = async (method: string, ...args: unknown[]): Promise<unknown> => {
    const target = openai();
    const fn = target?.[method];
    if (typeof fn !== "function") throw new Error(`window.openai.${method} is not available`);
    return await Reflect.apply(fn, target, args);
  };

  return {
    getGlobals: () => globals,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async callTool(name, args, schema) {
      try {
        return readToolReply(await invoke("callTool", name, args), schema);
      } catch (e) {
        return { ok: false, error: localFailure("unreachable", e instanceof Error ? e.message : String(e)) };
      }
    },
    async setWidgetState(state) {
      await invoke("setWidgetState", state);
    },
    async requestDisplayMode(mode) {
      await invoke("requestDisplayMode", { mode });
    },
    async sendFollowUpMessage(prompt) {
      await invoke("sendFollowUpMessage", { prompt });
    },
    dispose: () => win.removeEventListener(SET_GLOBALS_EVENT, onGlobals),
  };
}

/** Carries the host from <App> to the components. */
export const HostContext = createContext<Host | null>(null);

/** The host given to <App>; components use this, never `window.openai`. */
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
