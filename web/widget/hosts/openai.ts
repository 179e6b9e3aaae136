/**
 * The host adapter for ChatGPT's `window.openai`: globals from its fields and `openai:set_globals` (or an
 * emulator's `webplus:set_globals`, event or message), the extras each feature-detected. ChatGPT shows the
 * model the widget state, so the model context is written there, naming the job as the widget state must.
 */
import { isDisplayMode, LEGACY_SET_GLOBALS_EVENT, SET_GLOBALS_EVENT } from "../../host-globals.js";
import { isRecord } from "../../json-values.js";
import { createGlobals, type Host, type HostGlobals } from "../host.js";
import { localFailure, readToolReply } from "../tool-reply.js";
import { observeSize } from "./size.js";

const asRecord = (x: unknown): Record<string, unknown> | null => (isRecord(x) ? x : null);

/** What the events reported wins over `window.openai`'s fields. */
function read(openai: Record<string, unknown>, reported: Record<string, unknown>): Partial<HostGlobals> {
  const get = (k: string) => (k in reported ? reported[k] : openai[k]);
  const mode = get("displayMode");
  const height = get("maxHeight");
  const locale = get("locale");
  return {
    toolInput: get("toolInput") ?? null,
    toolOutput: get("toolOutput") ?? null,
    toolResponseMetadata: get("toolResponseMetadata") ?? null,
    widgetState: get("widgetState") ?? null,
    theme: get("theme") === "dark" ? "dark" : "light",
    displayMode: isDisplayMode(mode) ? mode : "inline",
    maxHeight: typeof height === "number" && height > 0 ? height : null,
    locale: typeof locale === "string" && locale !== "" ? locale : "en",
    localeFromHost: typeof locale === "string" && locale !== "",
  };
}

export function createOpenAiHost(win: Window): Host {
  const openai = () => asRecord(Reflect.get(win, "openai")) ?? {};
  const has = (name: string) => typeof openai()[name] === "function";
  const reported: Record<string, unknown> = {};
  const globals = createGlobals({
    connection: "ready",
    displayModes: has("requestDisplayMode") ? ["inline", "fullscreen", "pip"] : ["inline"],
    ...read(openai(), reported),
  });
  const take = (changed: unknown) => {
    Object.assign(reported, asRecord(changed));
    globals.update(read(openai(), reported));
  };
  const onGlobals = (event: Event) => take(asRecord(Reflect.get(event, "detail"))?.globals);
  const onMessage = (event: MessageEvent) => {
    const data = asRecord(event.data);
    if (event.source === win.parent && data?.type === LEGACY_SET_GLOBALS_EVENT) take(data.globals);
  };
  const listening = new AbortController();
  const { signal } = listening;
  win.addEventListener(SET_GLOBALS_EVENT, onGlobals, { signal });
  win.addEventListener(LEGACY_SET_GLOBALS_EVENT, onGlobals, { signal });
  win.addEventListener("message", onMessage, { signal });

  /** A missing method rejects, like a failed call. */
  const invoke = async (method: string, ...args: unknown[]): Promise<unknown> => {
    const target = openai();
    const fn = target[method];
    if (typeof fn !== "function") throw new Error(`window.openai.${method} is not available`);
    return await Reflect.apply(fn, target, args);
  };
  const tried = (method: string, ...args: unknown[]) =>
    invoke(method, ...args)
      .then(() => true)
      .catch(() => false);
  const stopSize = observeSize(win, ({ height }) => {
    if (has("notifyIntrinsicHeight")) void invoke("notifyIntrinsicHeight", height);
  });

  return {
    getGlobals: globals.get,
    subscribe: globals.subscribe,
    async callTool(name, args, schema) {
      try {
        return readToolReply(await invoke("callTool", name, args), schema);
      } catch (e) {
        return { ok: false, error: localFailure("unreachable", e instanceof Error ? e.message : String(e)) };
      }
    },
    fileDelivery: () => (has("openExternal") ? "link" : "none"),
    deliverFile: (file) => tried("openExternal", { href: file.url }),
    setWidgetState: (state) => invoke("setWidgetState", state).then(() => {}),
    requestDisplayMode: (mode) => invoke("requestDisplayMode", { mode }).then(() => {}),
    conversation: () => ({ modelContext: has("setWidgetState"), followUp: has("sendFollowUpMessage") }),
    updateModelContext: ({ structured }) => tried("setWidgetState", structured),
    sendFollowUp: (prompt) => tried("sendFollowUpMessage", { prompt }),
    // ChatGPT removes the frame without notice; nothing to flush
    onTeardown: () => {},
    dispose() {
      listening.abort();
      stopSize();
    },
  };
}
