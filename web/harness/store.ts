/**
 * The harness's state in one zustand store: the connection and its protocol revision, the
 * JSON-RPC log, the host globals, the mounted widget (the tool call it shows) and its widgetState,
 * the fault switches, the bulk form and the recent jobs. Actions only set state; talking to the
 * server is the session's job (session.ts). What survives a reload is persisted (memory.ts).
 */
import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import { persist } from "zustand/middleware";
import { useStore } from "zustand";
import {
  appendHostNote,
  appendMessage,
  attachHeaders,
  clearEntries,
  createRpcLog,
  type Peer,
  type RpcLog,
} from "./log/rpc-log.js";
import { currencyForLocale, type Currency } from "../../shared/money.js";
import { PROTOCOLS, type Protocol } from "./mcp/connection.js";
import type { RequestId } from "./mcp/wire-headers.js";
import { NO_FAULTS, type FaultConfig } from "./faults/faults.js";
import type { DisplayMode, Theme } from "../host-globals.js";
import { maxHeightFor, type HostKind } from "./bridge/globals.js";
import {
  createMemoryStorage,
  MEMORY_KEY,
  MEMORY_VERSION,
  pageMemory,
  type BulkForm,
  type MemoryBacking,
  type Remembered,
  type ShownCall,
} from "./memory.js";
import { addRecentJob, type RecentJob } from "./recent-jobs.js";

type Connection =
  | { status: "connecting" }
  | { status: "ready"; sessionId: string | null; server: string; protocol: string }
  | { status: "error"; error: string };

/**
 * A tool call shown in the widget pane: what the widget gets as its toolInput/toolOutput/metadata
 * (with the result's content blocks, which an MCP Apps host passes on with the rest).
 */
export type Mount = ShownCall & {
  /** Changes on every (re)mount, so the iframe is re-created. */
  key: number;
  html: string;
};

export type HarnessState = {
  connection: Connection;
  /** The protocol revision the harness connects in. */
  protocol: Protocol;
  log: RpcLog;
  hostKind: HostKind;
  theme: Theme;
  displayMode: DisplayMode;
  locale: string;
  mount: Mount | null;
  widgetState: unknown;
  faults: FaultConfig;
  /** The tool the controls are waiting on, if any. */
  busy: string | null;
  /** The last failure of a control action, shown beside the controls. */
  problem: string | null;
  /** Follow-up prompts the mounted widget sent (`sendFollowUpMessage`, `ui/message`). */
  followUps: string[];
  /** What the mounted widget last told the model (`ui/update-model-context`; ChatGPT: its widget state). */
  modelContext: unknown;
  /** The height the mounted widget asked for (`notifyIntrinsicHeight`), if it did. */
  intrinsicHeight: number | null;
  /** The bulk form's fields and chosen file. */
  form: BulkForm;
  /** Jobs started from here or by the widget, newest first. */
  recentJobs: RecentJob[];
  /** The call that was on screen before the page was reloaded, shown again once connected. */
  resume: ShownCall | null;
};

export type HarnessActions = {
  logMessage(direction: "out" | "in", message: unknown, peer?: Peer): void;
  logNote(method: string, detail: unknown): void;
  /** Notes the standard headers the request `id` to the server went out with. */
  logHeaders(id: RequestId, headers: Record<string, string>): void;
  clearLog(): void;
  setConnection(connection: Connection): void;
  /** Chooses the protocol revision; the session reconnects in it. */
  setProtocol(protocol: Protocol): void;
  /** Switches the kind of host; the widget is mounted afresh in it. */
  setHostKind(kind: HostKind): void;
  setTheme(theme: Theme): void;
  setDisplayMode(mode: DisplayMode): void;
  setLocale(locale: string): void;
  setFaults(patch: Partial<FaultConfig>): void;
  setWidgetState(state: unknown): void;
  /** Shows a new tool call: a fresh widget with no widgetState, as a new message in ChatGPT would. */
  mountWidget(mount: Omit<Mount, "key" | "at">): void;
  /** Shows the call `resume` held again, with the widgetState it had, as a reloaded conversation does. */
  resumeWidget(html: string, widgetUri: string): void;
  /** Re-creates the iframe for the same call, keeping widgetState, to watch the widget resume. */
  reloadWidget(): void;
  setBusy(busy: string | null): void;
  setProblem(problem: string | null): void;
  addFollowUp(prompt: string): void;
  setModelContext(context: unknown): void;
  setIntrinsicHeight(height: number): void;
  setForm(patch: Partial<BulkForm>): void;
  /** Puts a job first in the recent jobs, started now. */
  addRecentJob(job: Omit<RecentJob, "at">): void;
};

export type HarnessStore = StoreApi<HarnessState & HarnessActions>;

/** The maxHeight global that goes with the current display mode. */
export const maxHeightOf = (s: Pick<HarnessState, "displayMode">): number => maxHeightFor(s.displayMode);

/** An inline frame never collapses below this, even when the widget reports less. */
const MIN_FRAME_HEIGHT = 80;

/** The widget frame's height: inline, what the widget reported within the mode's bounds; else the pane's. */
export function frameHeight(s: Pick<HarnessState, "displayMode" | "intrinsicHeight">): number | undefined {
  if (s.displayMode !== "inline") return undefined;
  const max = maxHeightOf(s);
  return Math.max(MIN_FRAME_HEIGHT, Math.min(max, s.intrinsicHeight ?? max));
}

/** The form's budget until one is typed: about sixty dollars in the host locale's currency, since ₩60 buys nothing. */
const STARTING_BUDGET: Record<Currency, string> = { USD: "60", KRW: "80000", EUR: "55", JPY: "9000", GBP: "50" };
const INITIAL_FORM: BulkForm = { occasion: "Year-end thank you", budget: "60", paceMs: 0, typed: "", file: null };

/** The form for a host of `locale` after one of `was`: a budget still the starting one follows the currency. */
function formFor(form: BulkForm, was: string, locale: string): BulkForm {
  const untouched = !form.currency && form.budget === STARTING_BUDGET[currencyForLocale(was)];
  return untouched ? { ...form, budget: STARTING_BUDGET[currencyForLocale(locale)] } : form;
}

/** What of the state is remembered: the parts themselves, so an unchanged part is seen as unchanged. */
const remembered = (s: HarnessState): Remembered => ({
  hostKind: s.hostKind,
  protocol: s.protocol,
  theme: s.theme,
  displayMode: s.displayMode,
  locale: s.locale,
  faults: s.faults,
  form: s.form,
  recentJobs: s.recentJobs,
  // the call on screen, or the one still waiting to be shown again
  resume: s.mount ?? s.resume,
  widgetState: s.widgetState,
});

/**
 * The store, its memory kept in `backing` (the page's localStorage in the harness; by default a
 * memory that ends with the page).
 */
export function createHarnessStore(now: () => number = Date.now, backing: MemoryBacking = pageMemory()): HarnessStore {
  const state: StateCreator<HarnessState & HarnessActions, [["zustand/persist", unknown]]> = (set) => ({
    connection: { status: "connecting" },
    protocol: PROTOCOLS[0],
    log: createRpcLog(),
    hostKind: "openai",
    theme: "light",
    displayMode: "inline",
    locale: "en-US",
    mount: null,
    widgetState: null,
    faults: NO_FAULTS,
    busy: null,
    problem: null,
    followUps: [],
    modelContext: null,
    intrinsicHeight: null,
    form: INITIAL_FORM,
    recentJobs: [],
    resume: null,
    logMessage: (direction, message, peer) =>
      set((s) => ({ log: appendMessage(s.log, direction, message, now(), peer) })),
    logNote: (method, detail) => set((s) => ({ log: appendHostNote(s.log, method, detail, now()) })),
    logHeaders: (id, headers) => set((s) => ({ log: attachHeaders(s.log, id, headers) })),
    clearLog: () => set((s) => ({ log: clearEntries(s.log) })),
    setConnection: (connection) => set({ connection }),
    setProtocol: (protocol) => set({ protocol }),
    setHostKind: (hostKind) =>
      set((s) => ({
        hostKind,
        mount: s.mount ? { ...s.mount, key: s.mount.key + 1 } : null,
        widgetState: null,
        modelContext: null,
        intrinsicHeight: null,
      })),
    setTheme: (theme) => set({ theme }),
    setDisplayMode: (displayMode) => set({ displayMode }),
    setLocale: (locale) => set((s) => ({ locale, form: formFor(s.form, s.locale, locale) })),
    setFaults: (patch) => set((s) => ({ faults: { ...s.faults, ...patch } })),
    setWidgetState: (widgetState) => set({ widgetState }),
    mountWidget: (m) =>
      set((s) => ({
        mount: { ...m, key: (s.mount?.key ?? 0) + 1, at: now() },
        widgetState: null,
        followUps: [],
        modelContext: null,
        intrinsicHeight: null,
        resume: null,
      })),
    resumeWidget: (html, widgetUri) =>
      set((s) =>
        s.resume ? { mount: { ...s.resume, html, widgetUri, key: (s.mount?.key ?? 0) + 1 }, resume: null } : {},
      ),
    reloadWidget: () =>
      set((s) => (s.mount ? { mount: { ...s.mount, key: s.mount.key + 1 }, intrinsicHeight: null } : {})),
    setBusy: (busy) => set({ busy }),
    setProblem: (problem) => set({ problem }),
    addFollowUp: (prompt) => set((s) => ({ followUps: [...s.followUps, prompt] })),
    setModelContext: (modelContext) => set({ modelContext }),
    setIntrinsicHeight: (height) => set({ intrinsicHeight: height }),
    setForm: (patch) => set((s) => ({ form: { ...s.form, ...patch } })),
    addRecentJob: (job) => set((s) => ({ recentJobs: addRecentJob(s.recentJobs, { ...job, at: now() }) })),
  });
  return createStore<HarnessState & HarnessActions>()(
    persist(state, {
      name: MEMORY_KEY,
      version: MEMORY_VERSION,
      storage: createMemoryStorage(backing),
      partialize: remembered,
      // a memory of another shape is dropped, not guessed at
      migrate: () => ({}),
    }),
  );
}

/** Selects from the store in a component. */
export function useHarness<T>(store: HarnessStore, select: (s: HarnessState & HarnessActions) => T): T {
  return useStore(store, select);
}
