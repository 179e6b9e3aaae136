import { MEMORY_KEY, MAX_KEPT_CSV_CHARS, pageMemory } from "./memory.js";
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
  paceMs: 0,
};

describe("harness store", () => {
  it("starts a new widget with no widgetState or model context, and a reload keeps them", () => {
    const store = createHarnessStore(() => 5);
    store.getState().mountWidget(mount);
    store.getState().setWidgetState({ afterSeq: 7 });
    store.getState().setModelContext({ content: [{ type: "text", text: "status: running" }] });
    store.getState().addFollowUp("Summarize");
    const first = store.getState().mount!.key;
    store.getState().reloadWidget();
    expect(store.getState().mount!.key).toBe(first + 1);
    expect(store.getState().widgetState).toEqual({ afterSeq: 7 });
    expect(store.getState().followUps).toEqual(["Summarize"]);
    expect(store.getState().modelContext).toEqual({ content: [{ type: "text", text: "status: running" }] });
    store.getState().mountWidget(mount);
    expect(store.getState().mount!.key).toBe(first + 2);
    expect(store.getState().widgetState).toBeNull();
    expect(store.getState().followUps).toEqual([]);
    expect(store.getState().modelContext).toBeNull();
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
      oneCallAtATime: false,
      dropIsError: false,
      emptyObjects: false,
    });
  });
});

describe("harness store across a reload", () => {
  const job = {
    occasion: "Farewell",
    rows: 25,
    hostKind: "openai",
    protocol: "2025-11-25",
    paceMs: 0,
    input: null,
  } as const;

  it("starts the budget in the host locale's currency until one is typed or a currency is chosen", () => {
    const store = createHarnessStore(() => 42);
    const budget = () => store.getState().form.budget;
    expect(budget()).toBe("60");
    store.getState().setLocale("ko-KR");
    expect(budget()).toBe("80000"); // ₩60 would buy no gift
    store.getState().setLocale("en-GB");
    expect(budget()).toBe("50");
    store.getState().setForm({ budget: "70" });
    store.getState().setLocale("ko-KR");
    expect(budget()).toBe("70"); // typed: the person's own
    store.getState().setForm({ budget: "80000", currency: "KRW" });
    store.getState().setLocale("en-US");
    expect(budget()).toBe("80000"); // in the currency chosen
  });

  it("remembers the settings, the form, the recent jobs and the call on screen with its widgetState", () => {
    const backing = pageMemory();
    const before = createHarnessStore(() => 42, backing).getState();
    before.setHostKind("mcp-apps");
    before.setProtocol("2026-07-28");
    before.setTheme("dark");
    before.setDisplayMode("fullscreen");
    before.setLocale("ko-KR");
    before.setFaults({ duplicates: 3, shuffle: true, dropIsError: true, emptyObjects: true });
    before.setForm({ occasion: "Farewell", budget: "75", paceMs: 3_000, typed: "name,interests\nA,tea" });
    before.setForm({ file: { name: "staff.csv", bytes: 20, rows: 1, as: "csv", text: "name,interests\nB,books" } });
    before.addRecentJob({ ...job, jobId: "job_1" });
    before.mountWidget({ ...mount, paceMs: 3_000 });
    before.setWidgetState({ jobId: "job_1" });
    before.logNote("fault/drop", {});
    before.setBusy("start_bulk_gift_analysis");
    before.setProblem("Something");

    const after = createHarnessStore(() => 99, backing).getState();
    expect(after).toMatchObject({
      hostKind: "mcp-apps",
      protocol: "2026-07-28",
      theme: "dark",
      displayMode: "fullscreen",
      locale: "ko-KR",
      faults: { duplicates: 3, shuffle: true, dropIsError: true, emptyObjects: true },
      form: {
        occasion: "Farewell",
        budget: "75",
        paceMs: 3_000,
        typed: "name,interests\nA,tea",
        file: { name: "staff.csv", as: "csv", text: "name,interests\nB,books" },
      },
      recentJobs: [{ ...job, jobId: "job_1", at: 42 }],
      widgetState: { jobId: "job_1" },
      // never the log, the connection, busy/problem, nor the widget's HTML: the call waits to be shown again
      log: { entries: [] },
      connection: { status: "connecting" },
      busy: null,
      problem: null,
      mount: null,
    });
    const { html: _, ...shown } = { ...mount, paceMs: 3_000, at: 42 };
    expect(after.resume).toEqual(shown);
    expect(backing.getItem(MEMORY_KEY)).not.toContain(mount.html);
  });

  it("shows the remembered call again with its widgetState, and remembers it until then", () => {
    const backing = pageMemory();
    const before = createHarnessStore(() => 1, backing).getState();
    before.mountWidget(mount);
    before.setWidgetState({ jobId: "j" });
    // reloaded twice before it connected: the call is still remembered
    createHarnessStore(() => 2, backing)
      .getState()
      .setTheme("dark");
    const after = createHarnessStore(() => 3, backing);
    after.getState().resumeWidget("<p>again</p>", "ui://w2");
    expect(after.getState()).toMatchObject({
      mount: { toolOutput: { jobId: "j" }, html: "<p>again</p>", widgetUri: "ui://w2", at: 1 },
      widgetState: { jobId: "j" },
      resume: null,
    });
  });

  it("remembers a CSV over 2 MB and an attached file by their names only", () => {
    const backing = pageMemory();
    const before = createHarnessStore(() => 1, backing).getState();
    const big = "x".repeat(MAX_KEPT_CSV_CHARS + 1);
    before.setForm({ file: { name: "big.csv", bytes: big.length, rows: 9, as: "csv", text: big } });
    expect(createHarnessStore(() => 1, backing).getState().form.file).toEqual({
      name: "big.csv",
      bytes: big.length,
      rows: 9,
      as: "csv",
      text: null,
    });
    const file = new File(["a"], "staff.xlsx");
    before.setForm({ file: { name: "staff.xlsx", bytes: 1, rows: null, as: "file", text: null, file } });
    const after = createHarnessStore(() => 1, backing).getState().form.file;
    expect(after).toEqual({ name: "staff.xlsx", bytes: 1, rows: null, as: "file", text: null });
    expect(after?.file).toBeUndefined();
  });

  it("keeps ten recent jobs, newest first, each once", () => {
    const store = createHarnessStore(() => 1);
    for (let i = 0; i < 12; i++) store.getState().addRecentJob({ ...job, jobId: `job_${i}` });
    store.getState().addRecentJob({ ...job, jobId: "job_5" });
    expect(store.getState().recentJobs.map((j) => j.jobId)).toEqual([
      "job_5",
      "job_11",
      "job_10",
      "job_9",
      "job_8",
      "job_7",
      "job_6",
      "job_4",
      "job_3",
      "job_2",
    ]);
  });
});
