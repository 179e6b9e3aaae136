/**
 * The widget's iframe: the widget HTML with the `window.openai` stand-in first in its <head>,
 * in `sandbox="allow-scripts"` (no same-origin), wired to the harness through postMessage.
 * Globals are baked in at mount and pushed live afterwards, so a theme switch never reloads it.
 * The document is built in a task after the mount and loaded in the next. A tool input of
 * megabytes (an uploaded CSV) is not written into the document: escaping it into a script and
 * loading a `srcdoc` that long each took over 150 ms of the harness page's main thread. It goes to
 * the widget right after load, as `openai:set_globals` (ChatGPT, too, hands globals over by
 * message, not in the page); the widget reads `toolInput` only for "Try again".
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from "react";
import { CHANNEL } from "../bridge/messages.js";
import type { OpenAiGlobals } from "../../host-globals.js";
import { defaultGlobals } from "../bridge/globals.js";
import { createStandinScript, injectStandin } from "../bridge/standin.js";
import { openLink } from "../bridge/save-file.js";
import { listenToWidget, pushGlobals } from "../bridge/widget-host.js";
import type { HarnessSession } from "../session.js";
import { frameHeight, maxHeightOf, useHarness, type HarnessStore, type Mount } from "../store.js";

type Props = { store: HarnessStore; session: HarnessSession; mount: Mount };

/** Characters of strings past which a tool input is sent after load instead of written into the page. */
const INLINE_INPUT_CHARS = 256 * 1024;

/** The characters of the strings in `value`, stopping once past `limit`. */
function charsOver(value: unknown, limit: number): boolean {
  let total = 0;
  const walk = (v: unknown): boolean => {
    if (typeof v === "string") total += v.length;
    else if (v !== null && typeof v === "object") {
      for (const item of Object.values(v)) if (walk(item)) return true;
    }
    return total > limit;
  };
  return walk(value);
}

type Baked = { globals: OpenAiGlobals; deferred: Partial<OpenAiGlobals> };

/** The globals written into the document, read once per mount, and what is sent right after load instead. */
function useBakedGlobals(store: HarnessStore, mount: Mount): Baked {
  // Read once per mount: later changes travel as openai:set_globals instead of a reload.
  return useMemo(() => {
    const s = store.getState();
    const globals: OpenAiGlobals = {
      ...defaultGlobals(),
      theme: s.theme,
      displayMode: s.displayMode,
      locale: s.locale,
      maxHeight: maxHeightOf(s),
      toolInput: charsOver(mount.toolInput, INLINE_INPUT_CHARS) ? {} : mount.toolInput,
      toolOutput: mount.toolOutput,
      toolResponseMetadata: mount.toolResponseMetadata,
      widgetState: s.widgetState,
    };
    const deferred: Partial<OpenAiGlobals> =
      globals.toolInput === mount.toolInput ? {} : { toolInput: mount.toolInput };
    return { globals, deferred };
  }, [store, mount]);
}

/** The widget document with the stand-in first, built in a task after the mount. */
function useSrcDoc(baked: Baked, html: string): string | undefined {
  const [srcDoc, setSrcDoc] = useState<string | undefined>(undefined);
  useEffect(() => {
    const timer = setTimeout(() => {
      const standin = createStandinScript({
        globals: baked.globals,
        parentOrigin: window.location.origin,
        channel: CHANNEL,
      });
      setSrcDoc(injectStandin(html, standin));
    }, 0);
    return () => clearTimeout(timer);
  }, [baked, html]);
  return srcDoc;
}

/** Answers the stand-in's calls from the frame with the store and the session. */
function useWidgetCalls(frame: RefObject<HTMLIFrameElement | null>, { store, session, mount }: Props) {
  const uploads = useRef(0);
  useLayoutEffect(() => {
    const s = () => store.getState();
    return listenToWidget(window, () => frame.current?.contentWindow ?? null, {
      callTool: session.widgetCallTool,
      // the widget state is what ChatGPT shows the model of the widget
      setWidgetState: (state) => {
        s().setWidgetState(state);
        s().setModelContext(state);
        s().logNote("openai/setWidgetState", { state });
      },
      requestDisplayMode: (mode) => (s().setDisplayMode(mode), mode),
      sendFollowUpMessage: (prompt) => {
        s().addFollowUp(prompt);
        s().logNote("openai/sendFollowUpMessage", { prompt });
      },
      openExternal: (href) => s().logNote("openai/openExternal", { href, ...openLink(window, href) }),
      uploadFile: (file) => {
        const fileId = `file-harness-${++uploads.current}`;
        s().logNote("openai/uploadFile", { ...file, fileId });
        return { fileId };
      },
      notifyIntrinsicHeight: (height) => s().setIntrinsicHeight(height),
      onInvalid: (data, error) => s().logNote("bridge/invalid-message", { data, error }),
    });
  }, [frame, store, session, mount]);
}

/**
 * Pushes the globals the harness changes to the frame, only what differs from what the widget
 * already has; returns the push of the deferred globals, for each load.
 */
function useGlobalsPush(frame: RefObject<HTMLIFrameElement | null>, store: HarnessStore, baked: Baked) {
  const theme = useHarness(store, (s) => s.theme);
  const displayMode = useHarness(store, (s) => s.displayMode);
  const locale = useHarness(store, (s) => s.locale);
  const maxHeight = maxHeightOf({ displayMode });
  const sent = useRef<Partial<OpenAiGlobals>>(baked.globals);
  useEffect(() => {
    sent.current = baked.globals;
  }, [baked]);
  useEffect(() => {
    const win = frame.current?.contentWindow;
    const next: Partial<OpenAiGlobals> = { theme, displayMode, locale, maxHeight };
    const changed = Object.fromEntries(
      Object.entries(next).filter(([k, v]) => sent.current[k as keyof OpenAiGlobals] !== v),
    );
    if (!win || Object.keys(changed).length === 0) return;
    sent.current = { ...sent.current, ...changed };
    pushGlobals(win, changed);
  }, [frame, theme, displayMode, locale, maxHeight]);
  return () => {
    const win = frame.current?.contentWindow;
    if (!win || Object.keys(baked.deferred).length === 0) return;
    sent.current = { ...sent.current, ...baked.deferred };
    pushGlobals(win, baked.deferred);
  };
}

export function WidgetFrame({ store, session, mount }: Props) {
  const ref = useRef<HTMLIFrameElement>(null);
  const displayMode = useHarness(store, (s) => s.displayMode);
  const intrinsic = useHarness(store, (s) => s.intrinsicHeight);
  const baked = useBakedGlobals(store, mount);
  const srcDoc = useSrcDoc(baked, mount.html);
  useWidgetCalls(ref, { store, session, mount });
  const pushDeferred = useGlobalsPush(ref, store, baked);

  const height = frameHeight({ displayMode, intrinsicHeight: intrinsic });
  return (
    <iframe
      key={mount.key}
      ref={ref}
      title="Widget"
      data-mount={mount.key}
      className="widget-frame"
      sandbox="allow-scripts"
      srcDoc={srcDoc}
      // also on the blank page before the document: the push is repeated on every load
      onLoad={pushDeferred}
      style={height ? { height } : undefined}
    />
  );
}
