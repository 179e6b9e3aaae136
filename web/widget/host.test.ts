// @vitest-environment jsdom
import { CancelJobOutput, TOOL } from "../../shared/tools.js";
import { installFakeHost, type FakeHost } from "../../test-kit/widget/fake-host.js";
import { LEGACY_SET_GLOBALS_EVENT, SET_GLOBALS_EVENT } from "../host-globals.js";
import { createHost } from "./host-context.js";

let fake: FakeHost | undefined;
afterEach(() => {
  fake?.uninstall();
  fake = undefined;
});

describe("createHost in ChatGPT (window.openai)", () => {
  it("reads the host's globals, normalizing what it does not recognise", () => {
    fake = installFakeHost({ theme: "dark", locale: "ko-KR", maxHeight: 480 });
    const host = createHost();
    expect(host.getGlobals()).toMatchObject({
      connection: "ready",
      theme: "dark",
      locale: "ko-KR",
      maxHeight: 480,
      displayMode: "inline",
    });
    fake.setGlobals({ theme: "sepia", maxHeight: -1, displayMode: "sideways" });
    expect(host.getGlobals()).toMatchObject({ theme: "light", maxHeight: null, displayMode: "inline" });
    host.dispose();
  });

  it("takes webplus:set_globals too, as an event or as a message from the parent (hosts emulating ChatGPT)", () => {
    fake = installFakeHost({});
    const host = createHost();
    window.dispatchEvent(new CustomEvent(LEGACY_SET_GLOBALS_EVENT, { detail: { globals: { theme: "dark" } } }));
    expect(host.getGlobals().theme).toBe("dark");
    const message = (source: Window | null) =>
      new MessageEvent("message", { source, data: { type: LEGACY_SET_GLOBALS_EVENT, globals: { locale: "ko-KR" } } });
    // only the parent speaks for the host
    const before = host.getGlobals().locale;
    window.dispatchEvent(message(null));
    expect(host.getGlobals().locale).toBe(before);
    expect(before).not.toBe("ko-KR");
    window.dispatchEvent(message(window.parent));
    expect(host.getGlobals().locale).toBe("ko-KR");
    host.dispose();
  });

  it("notifies subscribers when openai:set_globals reports a change, and only then", () => {
    fake = installFakeHost({});
    const host = createHost();
    const seen: string[] = [];
    const unsubscribe = host.subscribe(() => seen.push(host.getGlobals().theme));
    fake.setGlobals({ theme: "dark" });
    fake.setGlobals({ theme: "dark" });
    // a host that sends the change only in the event detail, not on window.openai
    window.dispatchEvent(new CustomEvent(SET_GLOBALS_EVENT, { detail: { globals: { theme: "light" } } }));
    expect(seen).toEqual(["dark", "light"]);
    unsubscribe();
    host.dispose();
    fake.setGlobals({ theme: "dark" });
    expect(seen).toHaveLength(2);
  });

  it("says plainly when there is no host at all (no window.openai, no parent frame), and fails calls instead of throwing", async () => {
    const host = createHost();
    await vi.waitFor(() => expect(host.getGlobals().connection).toBe("none"));
    await expect(host.callTool(TOOL.cancelJob, { jobId: "job-1" }, CancelJobOutput)).resolves.toMatchObject({
      ok: false,
      error: { code: "unreachable" },
    });
    host.dispose();
  });

  it.each(["full", "legacy"] as const)("parses callTool replies of the %s shape", async (shape) => {
    fake = installFakeHost({ faults: { shape } });
    const host = createHost();
    await expect(host.callTool(TOOL.cancelJob, { jobId: "job-1" }, CancelJobOutput)).resolves.toEqual({
      ok: true,
      value: { jobId: "job-1", status: "running", changed: true },
    });
    const unknown = await host.callTool(TOOL.cancelJob, { jobId: "nope" }, CancelJobOutput);
    expect(unknown).toMatchObject({ ok: false, error: { message: "No such job." } });
    host.dispose();
  });

  it("passes setWidgetState and requestDisplayMode through to the host", async () => {
    fake = installFakeHost({});
    const host = createHost();
    await host.setWidgetState({ jobId: "job-1", lastSeq: 3 });
    await host.requestDisplayMode("fullscreen");
    expect(fake.openai.widgetState).toEqual({ jobId: "job-1", lastSeq: 3 });
    expect(host.getGlobals().displayMode).toBe("fullscreen");
    host.dispose();
  });

  it("tells the model in the widget state ChatGPT shows it, and the chat with sendFollowUpMessage, where there", async () => {
    fake = installFakeHost({});
    const host = createHost();
    expect(host.conversation()).toEqual({ modelContext: true, followUp: true });
    const structured = { jobId: "job-1", status: "running" };
    await expect(host.updateModelContext({ text: "status: running", structured })).resolves.toBe(true);
    expect(fake.openai.widgetState).toEqual(structured);
    await expect(host.sendFollowUp("The gift analysis is done.")).resolves.toBe(true);
    expect(fake.argsOf("sendFollowUpMessage")).toEqual([{ prompt: "The gift analysis is done." }]);
    host.dispose();
    fake.uninstall();

    fake = installFakeHost({ noFollowUp: true });
    const older = createHost();
    expect(older.conversation()).toEqual({ modelContext: true, followUp: false });
    await expect(older.sendFollowUp("Done")).resolves.toBe(false);
    older.dispose();
  });
});
