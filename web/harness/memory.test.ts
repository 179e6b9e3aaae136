import { MEMORY_KEY, MEMORY_VERSION, pageMemory, type MemoryBacking } from "./memory.js";
import { createHarnessStore } from "./store.js";

/** A backing that counts writes and refuses values longer than `quota` characters, as a full localStorage would. */
function limited(quota = Infinity) {
  const inner = pageMemory();
  const writes: string[] = [];
  const backing: MemoryBacking = {
    ...inner,
    setItem(key, value) {
      if (value.length > quota) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      writes.push(value);
      inner.setItem(key, value);
    },
  };
  return { backing, writes };
}

const stored = (backing: MemoryBacking) => JSON.parse(backing.getItem(MEMORY_KEY) ?? "null");

describe("the harness's memory", () => {
  it("writes only when a remembered part changed, never for the log or the connection", () => {
    const { backing, writes } = limited();
    const s = createHarnessStore(() => 1, backing).getState();
    s.setTheme("dark");
    expect(writes).toHaveLength(1);
    s.logMessage("out", { jsonrpc: "2.0", id: 1, method: "tools/list" });
    s.setConnection({ status: "ready", sessionId: null, server: "x", protocol: "2026-07-28" });
    s.setBusy("x");
    s.setIntrinsicHeight(300);
    expect(writes).toHaveLength(1);
    s.setForm({ occasion: "Farewell" });
    expect(writes).toHaveLength(2);
    expect(stored(backing)).toMatchObject({ version: MEMORY_VERSION, state: { theme: "dark" } });
  });

  it("keeps the settings and the jobs without the texts when the whole does not fit, and never throws", () => {
    const { backing } = limited(5_000);
    const s = createHarnessStore(() => 1, backing).getState();
    s.setLocale("ko-KR");
    s.addRecentJob({
      jobId: "job_1",
      occasion: "Farewell",
      rows: 1,
      hostKind: "openai",
      protocol: "2025-11-25",
      paceMs: 0,
      input: { csv: "y".repeat(3_000) },
    });
    s.setForm({ typed: "x".repeat(6_000) });
    const after = createHarnessStore(() => 1, backing).getState();
    expect(after.locale).toBe("ko-KR");
    expect(after.form.typed).toBe("");
    expect(after.recentJobs).toMatchObject([{ jobId: "job_1", input: null }]);

    const { backing: none } = limited(0);
    expect(() =>
      createHarnessStore(() => 1, none)
        .getState()
        .setTheme("dark"),
    ).not.toThrow();
  });

  it("forgets a part that does not parse alone, and all of a memory of another version", () => {
    const backing = pageMemory();
    backing.setItem(
      MEMORY_KEY,
      JSON.stringify({ version: MEMORY_VERSION, state: { theme: "dark", locale: 7, hostKind: "netscape" } }),
    );
    expect(createHarnessStore(() => 1, backing).getState()).toMatchObject({
      theme: "dark",
      locale: "en-US",
      hostKind: "openai",
    });
    backing.setItem(MEMORY_KEY, JSON.stringify({ version: MEMORY_VERSION + 1, state: { theme: "dark" } }));
    expect(createHarnessStore(() => 1, backing).getState().theme).toBe("light");
    backing.setItem(MEMORY_KEY, "{not json");
    expect(createHarnessStore(() => 1, backing).getState().theme).toBe("light");
  });
});
