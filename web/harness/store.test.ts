import { createHarnessStore } from "./store.js";

const mount = {
  toolName: "start_bulk_gift_analysis",
  toolInput: { occasion: "x" },
  toolOutput: { jobId: "j" },
  toolResponseMetadata: null,
  toolContent: [],
  isError: false,
  widgetUri: "ui://w",
  html: "<p>w</p>",
};

describe("harness store", () => {
  it("starts a new widget with no widgetState, and a reload keeps it", () => {
    const store = createHarnessStore(() => 5);
    store.getState().mountWidget(mount);
    store.getState().setWidgetState({ afterSeq: 7 });
    store.getState().addFollowUp("Summarize");
    const first = store.getState().mount!.key;
    store.getState().reloadWidget();
    expect(store.getState().mount!.key).toBe(first + 1);
    expect(store.getState().widgetState).toEqual({ afterSeq: 7 });
    expect(store.getState().followUps).toEqual(["Summarize"]);
    store.getState().mountWidget(mount);
    expect(store.getState().mount!.key).toBe(first + 2);
    expect(store.getState().widgetState).toBeNull();
    expect(store.getState().followUps).toEqual([]);
  });

  it("logs messages with the store's clock and keeps numbering across a clear", () => {
    let t = 100;
    const store = createHarnessStore(() => t);
    store.getState().logMessage("out", { jsonrpc: "2.0", id: 1, method: "tools/list" });
    store.getState().clearLog();
    t = 130;
    store.getState().logMessage("in", { jsonrpc: "2.0", id: 1, result: { tools: [] } });
    expect(store.getState().log.entries).toEqual([
      expect.objectContaining({ n: 2, method: "tools/list", latencyMs: 30 }),
    ]);
  });

  it("patches fault switches", () => {
    const store = createHarnessStore();
    store.getState().setFaults({ duplicates: 3, dropNext: true });
    store.getState().setFaults({ dropNext: false });
    expect(store.getState().faults).toEqual({
      duplicates: 3,
      shuffle: false,
      delayMs: 0,
      dropNext: false,
      dropNextChunk: false,
    });
  });
});
