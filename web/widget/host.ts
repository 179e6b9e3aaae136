/**
 * The host as the widget sees it: one `Host` type with one adapter per kind of host (hosts/).
 * Nothing else in the widget knows which one it runs in; tool replies come back parsed, never cast.
 */
import type * as z from "zod/mini";
import type { ExportResult } from "../../shared/files.js";
import type { ToolName } from "../../shared/tools.js";
import type { DisplayMode, Theme } from "../host-globals.js";
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
  /** Whether the host said the locale (rather than "en" by default): then it is the person's, over the model's word. */
  localeFromHost: boolean;
};

/**
 * How a host hands over a file: "embedded" takes its bytes (`ui/download-file`), "link" opens its
 * URL (`openExternal`, `ui/open-link`), "none" leaves the widget to show the link.
 */
export type FileDelivery = "embedded" | "link" | "none";

/** What a host lets the card say to the conversation: update the model's context, post a follow-up. */
export type Conversation = { modelContext: boolean; followUp: boolean };

/** What the card tells the model: a short text for any host, the same in fields for those that take them. */
export type ModelContext = { text: string; structured: Record<string, unknown> };

export type Host = {
  getGlobals(): HostGlobals;
  subscribe(listener: () => void): () => void;
  callTool<T>(name: ToolName, args: Record<string, unknown>, schema: z.ZodMiniType<T>): Promise<ToolOutcome<T>>;
  /** What this host offers for files, known once connected. */
  fileDelivery(): FileDelivery;
  /** Hands an exported file to the person the host's way; false when the host refused or failed. */
  deliverFile(file: ExportResult): Promise<boolean>;
  /** Kept across renders where the host keeps widget state (ChatGPT); elsewhere it is dropped. */
  setWidgetState(state: Record<string, unknown>): Promise<void>;
  requestDisplayMode(mode: DisplayMode): Promise<void>;
  /** What this host offers for the conversation, known once connected. */
  conversation(): Conversation;
  /**
   * Tells the model what the card shows, replacing what it was told before (`ui/update-model-context`,
   * ChatGPT's model-visible widget state); false when not offered or refused.
   */
  updateModelContext(context: ModelContext): Promise<boolean>;
  /** Posts `text` in the conversation as the person's message (`ui/message`, `sendFollowUpMessage`); false when not offered or refused. */
  sendFollowUp(text: string): Promise<boolean>;
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
  localeFromHost: false,
};

/** Globals kept as a snapshot; listeners hear only of a value that really changed. */
export function createGlobals(initial: HostGlobals) {
  let globals = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => globals,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    update(changes: Partial<HostGlobals>) {
      const next = { ...globals, ...changes };
      if ((Object.keys(changes) as (keyof HostGlobals)[]).every((k) => next[k] === globals[k])) return;
      globals = next;
      for (const l of listeners) l();
    },
  };
}
