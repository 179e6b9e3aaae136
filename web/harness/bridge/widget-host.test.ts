// @vitest-environment jsdom
import { listenToWidget, pushGlobals, type WidgetHostHandlers } from "./widget-host.js";
import { CHANNEL } from "./messages.js";

/** A stand-in for the iframe's window: records what the host posts to it. */
function frameWindow() {
  const received: unknown[] = [];
  return { received, win: { postMessage: (m: unknown) => received.push(m) } as unknown as Window };
}

function setup(overrides: Partial<WidgetHostHandlers> = {}) {
  const frame = frameWindow();
  const calls: unknown[][] = [];
  const handlers: WidgetHostHandlers = {
    callTool: async (name, args) => ({ structuredContent: { name, args }, content: [], isError: false }),
    setWidgetState: (s) => calls.push(["state", s]),
    requestDisplayMode: (mode) => (calls.push(["mode", mode]), mode),
    sendFollowUpMessage: (p) => calls.push(["followUp", p]),
    openExternal: (h) => calls.push(["open", h]),
    uploadFile: (f) => (calls.push(["upload", f.name]), { fileId: "file-1" }),
    notifyIntrinsicHeight: (h) => calls.push(["height", h]),
    onInvalid: (d, e) => calls.push(["invalid", e.length > 0]),
    ...overrides,
  };
  const stop = listenToWidget(window, () => frame.win, handlers);
  const send = (data: unknown, source: unknown = frame.win) =>
    window.dispatchEvent(new MessageEvent("message", { data, origin: "null", source: source as never }));
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { frame, calls, send, settle, stop };
}

describe("listenToWidget", () => {
  it("runs a widget's callTool and answers with the full result under the same id", async () => {
    const { frame, send, settle, stop } = setup();
    send({
      channel: CHANNEL,
      type: "call",
      id: 4,
      op: "callTool",
      payload: { name: "get_job_events", args: { jobId: "j" } },
    });
    await settle();
    expect(frame.received).toEqual([
      {
        channel: CHANNEL,
        type: "reply",
        id: 4,
        ok: true,
        value: { structuredContent: { name: "get_job_events", args: { jobId: "j" } }, content: [], isError: false },
      },
    ]);
    stop();
  });

  it("answers a failed call with its message", async () => {
    const { frame, send, settle, stop } = setup({
      callTool: async () => {
        throw new Error("Network error: lost");
      },
    });
    send({ channel: CHANNEL, type: "call", id: 1, op: "callTool", payload: { name: "x" } });
    await settle();
    expect(frame.received).toEqual([
      { channel: CHANNEL, type: "reply", id: 1, ok: false, error: "Network error: lost" },
    ]);
    stop();
  });

  it("ignores messages from any window but the widget's", async () => {
    const { frame, calls, send, settle, stop } = setup();
    send({ channel: CHANNEL, type: "call", id: 1, op: "sendFollowUpMessage", payload: { prompt: "hi" } }, window);
    send(
      { channel: CHANNEL, type: "call", id: 2, op: "sendFollowUpMessage", payload: { prompt: "hi" } },
      frameWindow().win,
    );
    await settle();
    expect(calls).toEqual([]);
    expect(frame.received).toEqual([]);
    stop();
  });

  it("rejects a malformed call and reports it", async () => {
    const { frame, calls, send, settle, stop } = setup();
    send({ channel: CHANNEL, type: "call", id: 3, op: "requestDisplayMode", payload: { mode: "huge" } });
    send({ channel: "someone-else", type: "call", id: 5, op: "callTool" });
    await settle();
    expect(calls).toEqual([["invalid", true]]);
    expect(frame.received).toEqual([
      { channel: CHANNEL, type: "reply", id: 3, ok: false, error: "The host could not read this call" },
    ]);
    stop();
  });

  it("routes the other calls and answers each", async () => {
    const { frame, calls, send, settle, stop } = setup();
    send({ channel: CHANNEL, type: "call", id: 1, op: "setWidgetState", payload: { state: { afterSeq: 3 } } });
    send({ channel: CHANNEL, type: "call", id: 2, op: "requestDisplayMode", payload: { mode: "fullscreen" } });
    send({ channel: CHANNEL, type: "call", id: 3, op: "sendFollowUpMessage", payload: { prompt: "Summarize" } });
    send({ channel: CHANNEL, type: "call", id: 4, op: "openExternal", payload: { href: "https://example.com" } });
    send({ channel: CHANNEL, type: "call", id: 5, op: "notifyIntrinsicHeight", payload: { height: 320 } });
    send({
      channel: CHANNEL,
      type: "call",
      id: 6,
      op: "uploadFile",
      payload: { name: "a.png", type: "image/png", size: 3 },
    });
    await settle();
    expect(calls).toEqual([
      ["state", { afterSeq: 3 }],
      ["mode", "fullscreen"],
      ["followUp", "Summarize"],
      ["open", "https://example.com"],
      ["height", 320],
      ["upload", "a.png"],
    ]);
    expect(frame.received).toContainEqual({
      channel: CHANNEL,
      type: "reply",
      id: 2,
      ok: true,
      value: { mode: "fullscreen" },
    });
    expect(frame.received).toContainEqual({
      channel: CHANNEL,
      type: "reply",
      id: 6,
      ok: true,
      value: { fileId: "file-1" },
    });
    expect(frame.received).toHaveLength(6);
    stop();
  });

  it("stops listening when unsubscribed", async () => {
    const { calls, send, settle, stop } = setup();
    stop();
    send({ channel: CHANNEL, type: "call", id: 1, op: "sendFollowUpMessage", payload: { prompt: "hi" } });
    await settle();
    expect(calls).toEqual([]);
  });
});

describe("pushGlobals", () => {
  it("posts the changed globals on the channel", () => {
    const frame = frameWindow();
    pushGlobals(frame.win, { theme: "dark" });
    expect(frame.received).toEqual([{ channel: CHANNEL, type: "globals", globals: { theme: "dark" } }]);
  });
});
