/** The host as the widget sees it: one `Host` type, one adapter per kind of host (hosts/). */
import type * as z from "zod/mini";
import { createStore } from "zustand/vanilla";
import type { ExportResult } from "../../shared/files.js";
import type { ToolName } from "../../shared/tools.js";
import type { DisplayMode, Theme } from "../host-globals.js";
import type { ToolOutcome } from "./tool-reply.js";

/** What the widget reads from the host; object values stay `unknown` until a schema parses them. */
export type HostGlobals = {
  connection: "connecting" | "ready" | "none";
  toolInput: unknown;
  toolOutput: unknown;
  toolResponseMetadata: unknown;
  toolCancelled: boolean;
  widgetState: unknown;
  theme: Theme;
  displayMode: DisplayMode;
  displayModes: readonly DisplayMode[];
  maxHeight: number | null;
  locale: string;
  /** The host said the locale (not "en" by default): the person's, over the model's word. */
  localeFromHost: boolean;
};

/** How a host takes a file: its bytes (`ui/download-file`), its URL opened, or not at all (the link is shown). */
export type FileDelivery = "embedded" | "link" | "none";

export type Conversation = { modelContext: boolean; followUp: boolean };

/** What the card tells the model: a short text, and the same in fields for hosts that take them. */
export type ModelContext = { text: string; structured: Record<string, unknown> };

export type Host = {
  getGlobals(): HostGlobals;
  subscribe(listener: () => void): () => void;
  callTool<T>(name: ToolName, args: Record<string, unknown>, schema: z.ZodMiniType<T>): Promise<ToolOutcome<T>>;
  fileDelivery(): FileDelivery;
  /** False when the host refused or failed. */
  deliverFile(file: ExportResult): Promise<boolean>;
  /** Kept across renders where the host keeps widget state (ChatGPT); elsewhere it is dropped. */
  setWidgetState(state: Record<string, unknown>): Promise<void>;
  requestDisplayMode(mode: DisplayMode): Promise<void>;
  conversation(): Conversation;
  /** Replaces what the model was told of the card; false when not offered or refused. */
  updateModelContext(context: ModelContext): Promise<boolean>;
  /** Posts `text` as the person's message; false when not offered or refused. */
  sendFollowUp(text: string): Promise<boolean>;
  onTeardown(listener: () => void): void;
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
  localeFromHost: false,
};

/** Globals kept as a snapshot over `INITIAL_GLOBALS`; listeners hear only of a value that really changed. */
export function createGlobals(initial: Partial<HostGlobals> = {}) {
  const store = createStore<HostGlobals>()(() => ({ ...INITIAL_GLOBALS, ...initial }));
  const same = (changes: Partial<HostGlobals>, g: HostGlobals) =>
    (Object.keys(changes) as (keyof HostGlobals)[]).every((k) => changes[k] === g[k]);
  return {
    get: store.getState,
    subscribe: store.subscribe,
    update: (changes: Partial<HostGlobals>) => store.setState((g) => (same(changes, g) ? g : changes)),
  };
}
