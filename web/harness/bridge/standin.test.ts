// @vitest-environment jsdom
import { createStandinScript, injectStandin, scriptSafeJson } from "./standin.js";
import type { OpenAiGlobals } from "../../host-globals.js";
import { defaultGlobals } from "./globals.js";

const ORIGIN = location.origin;
const CHANNEL = "test-channel";

type Sent = { message: Record<string, unknown> };
type WidgetWindow = Window & { openai: Record<string, any>; seen?: unknown[]; pwned?: number };

/** Loads a widget document with the stand-in into a child iframe of this (the harness) window. */
function widgetDocument(
  bodyScript = "",
  globals: OpenAiGlobals = {
    ...defaultGlobals(),
    toolInput: { occasion: "farewell" },
    toolOutput: { jobId: "j-1" },
    widgetState: { afterSeq: 4 },
  },
) {
  const sent: Sent[] = [];
  const html = injectStandin(
    `<!doctype html><html><head><title>w</title></head><body><script>${bodyScript}</script></body></html>`,
    createStandinScript({ globals, parentOrigin: ORIGIN, channel: CHANNEL }),
  );
  const iframe = document.createElement("iframe");
  document.body.append(iframe);
  const onMessage = (e: MessageEvent) => sent.push({ message: e.data });
  window.addEventListener("message", onMessage);
  const win = iframe.contentWindow as WidgetWindow;
  win.document.open();
  win.document.write(html);
  win.document.close();
  // The iframe's parent as jsdom links it (the test's `window` global is a different wrapper).
  const fromHost = (data: unknown, origin = ORIGIN, source: unknown = win.parent) =>
    win.dispatchEvent(
      new (win as unknown as typeof globalThis).MessageEvent("message", { data, origin, source: source as never }),
    );
  // jsdom delivers postMessage on a timer
  const flush = () => new Promise((r) => setTimeout(r, 5));
  const done = () => {
    window.removeEventListener("message", onMessage);
    iframe.remove();
  };
  return { win, sent, fromHost, flush, done };
}

describe("the window.openai stand-in", () => {
  it("exists before the widget's own scripts, with the globals", () => {
    const { win, done } = widgetDocument("window.seen = [window.openai.toolOutput.jobId, window.openai.theme];");
    expect(win.seen).toEqual(["j-1", "light"]);
    expect(win.openai).toMatchObject({
      displayMode: "inline",
      locale: "en-US",
      widgetState: { afterSeq: 4 },
      toolInput: { occasion: "farewell" },
    });
    expect(win.openai.maxHeight).toBeGreaterThan(0);
    done();
  });

  it("forwards callTool to the parent window and resolves with the host's reply", async () => {
    const { win, sent, fromHost, flush, done } = widgetDocument();
    const result = win.openai.callTool("get_job_events", { jobId: "j-1" });
    await flush();
    expect(sent).toEqual([
      {
        message: {
          channel: CHANNEL,
          type: "call",
          id: 1,
          op: "callTool",
          payload: { name: "get_job_events", args: { jobId: "j-1" } },
        },
      },
    ]);
    const value = { structuredContent: { events: [] }, content: [], isError: false, _meta: {} };
    fromHost({ channel: CHANNEL, type: "reply", id: 1, ok: true, value });
    await expect(result).resolves.toEqual(value);
    done();
  });

  it("rejects callTool when the host answers with an error", async () => {
    const { win, fromHost, done } = widgetDocument();
    const result = win.openai.callTool("get_job_events", {});
    fromHost({ channel: CHANNEL, type: "reply", id: 1, ok: false, error: "Network error" });
    await expect(result).rejects.toThrow("Network error");
    done();
  });

  it("ignores messages from another window, another origin or another channel", async () => {
    const { win, fromHost, flush, done } = widgetDocument();
    let settled = false;
    void win.openai.callTool("x", {}).finally(() => {
      settled = true;
    });
    fromHost({ channel: CHANNEL, type: "reply", id: 1, ok: true, value: 1 }, ORIGIN, win);
    fromHost({ channel: CHANNEL, type: "reply", id: 1, ok: true, value: 1 }, "null");
    fromHost({ channel: "other", type: "reply", id: 1, ok: true, value: 1 });
    fromHost({ channel: CHANNEL, type: "globals", globals: { theme: "dark" } }, "http://evil.test");
    await flush();
    expect(settled).toBe(false);
    expect(win.openai.theme).toBe("light");
    fromHost({ channel: CHANNEL, type: "reply", id: 1, ok: true, value: 1 });
    await flush();
    expect(settled).toBe(true);
    done();
  });

  it("applies new globals and fires openai:set_globals with them", () => {
    const { win, fromHost, done } = widgetDocument(
      "window.seen = []; window.addEventListener('openai:set_globals', (e) => window.seen.push([e.detail.globals, window.openai.theme]));",
    );
    fromHost({ channel: CHANNEL, type: "globals", globals: { theme: "dark", displayMode: "fullscreen" } });
    expect(win.seen).toEqual([[{ theme: "dark", displayMode: "fullscreen" }, "dark"]]);
    expect(win.openai.displayMode).toBe("fullscreen");
    done();
  });

  it("keeps widgetState locally, tells the host, and fires set_globals", async () => {
    const { win, sent, fromHost, flush, done } = widgetDocument(
      "window.seen = []; window.addEventListener('openai:set_globals', (e) => window.seen.push(e.detail.globals));",
    );
    const saved = win.openai.setWidgetState({ afterSeq: 9 });
    expect(win.openai.widgetState).toEqual({ afterSeq: 9 });
    expect(win.seen).toEqual([{ widgetState: { afterSeq: 9 } }]);
    await flush();
    expect(sent[0].message).toMatchObject({ op: "setWidgetState", payload: { state: { afterSeq: 9 } } });
    fromHost({ channel: CHANNEL, type: "reply", id: 1, ok: true, value: null });
    await expect(saved).resolves.toBeUndefined();
    done();
  });

  it("forwards requestDisplayMode and sendFollowUpMessage", async () => {
    const { win, sent, fromHost, flush, done } = widgetDocument();
    const mode = win.openai.requestDisplayMode({ mode: "pip" });
    const follow = win.openai.sendFollowUpMessage({ prompt: "Summarize" });
    await flush();
    expect(sent.map((s) => [s.message.op, s.message.payload])).toEqual([
      ["requestDisplayMode", { mode: "pip" }],
      ["sendFollowUpMessage", { prompt: "Summarize" }],
    ]);
    fromHost({ channel: CHANNEL, type: "reply", id: 1, ok: true, value: { mode: "pip" } });
    fromHost({ channel: CHANNEL, type: "reply", id: 2, ok: true, value: null });
    await expect(mode).resolves.toEqual({ mode: "pip" });
    await expect(follow).resolves.toBeUndefined();
    done();
  });

  it("takes only images in uploadFile, as ChatGPT's does", async () => {
    const { win, sent, fromHost, flush, done } = widgetDocument();
    const W = win as unknown as typeof globalThis;
    await expect(win.openai.uploadFile(new W.File(["a,b"], "staff.csv", { type: "text/csv" }))).rejects.toThrow(
      /images only.*not text\/csv/,
    );
    const image = win.openai.uploadFile(new W.File(["png"], "logo.png", { type: "image/png" }));
    await flush();
    expect(sent.map((s) => [s.message.op, s.message.payload])).toEqual([
      ["uploadFile", { name: "logo.png", type: "image/png", size: 3 }],
    ]);
    fromHost({ channel: CHANNEL, type: "reply", id: 1, ok: true, value: { fileId: "file-1" } });
    await expect(image).resolves.toEqual({ fileId: "file-1" });
    done();
  });

  it("survives globals that try to close the script element", () => {
    const globals = { ...defaultGlobals(), toolInput: { note: "</script><script>window.pwned = 1</script>\u2028" } };
    const { win, done } = widgetDocument("", globals);
    expect(win.pwned).toBeUndefined();
    expect(win.openai.toolInput.note).toBe(globals.toolInput.note);
    done();
  });
});

describe("injectStandin", () => {
  it("puts the script first in <head>, before the widget's own scripts", () => {
    const out = injectStandin(
      '<!doctype html><html lang="en"><head data-x="1"><script src="w.js"></script></head></html>',
      "S",
    );
    expect(out).toBe(
      '<!doctype html><html lang="en"><head data-x="1"><script data-harness="openai-standin">S</script><script src="w.js"></script></head></html>',
    );
  });

  it("creates a <head> when the document has none", () => {
    expect(injectStandin("<html><body></body></html>", "S")).toBe(
      '<html><head><script data-harness="openai-standin">S</script></head><body></body></html>',
    );
    expect(injectStandin("<p>hi</p>", "S")).toBe(
      '<head><script data-harness="openai-standin">S</script></head><p>hi</p>',
    );
  });

  it("does not mistake <header> for <head>", () => {
    expect(injectStandin("<html><body><header></header></body></html>", "S")).toMatch(/^<html><head><script/);
  });

  it("escapes markup in JSON", () => {
    expect(scriptSafeJson({ a: "</script>" })).toBe('{"a":"\\u003c/script\\u003e"}');
  });
});
