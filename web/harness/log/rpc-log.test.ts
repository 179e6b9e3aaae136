import {
  appendHostNote,
  appendMessage,
  attachHeaders,
  clearEntries,
  createRpcLog,
  entryAt,
  filterEntries,
  MAX_ENTRIES,
  type RpcLog,
} from "./rpc-log.js";

const call = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});

describe("rpc log", () => {
  it("pairs a reply with its request by id, carrying method, tool and latency", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", call(7, "get_job_events"), 1000);
    log = appendMessage(log, "in", { jsonrpc: "2.0", method: "notifications/job/progress", params: {} }, 1010);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 7, result: { content: [] } }, 1250);
    const [req, note, reply] = log.entries;
    expect(note).toMatchObject({ kind: "notification", dir: "in", method: "notifications/job/progress", pair: null });
    expect(reply).toMatchObject({
      kind: "result",
      method: "tools/call",
      tool: "get_job_events",
      latencyMs: 250,
      pair: req.n,
    });
    expect(req).toMatchObject({ kind: "request", dir: "out", pair: reply.n });
    expect(log.pending).toEqual({});
  });

  it("pairs replies that arrive out of order", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: 1, method: "resources/list" }, 0);
    log = appendMessage(log, "out", call(2, "suggest_gifts"), 5);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 2, result: {} }, 20);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 1, result: {} }, 30);
    expect(log.entries.map((e) => [e.method, e.latencyMs])).toEqual([
      ["resources/list", null],
      ["tools/call", null],
      ["tools/call", 15],
      ["resources/list", 30],
    ]);
  });

  it("keeps protocol errors and isError results apart", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", call(1, "start_bulk_gift_analysis"), 0);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 1, result: { isError: true, content: [] } }, 1);
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: 2, method: "nope/unknown" }, 2);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found" } }, 3);
    expect(log.entries[1]).toMatchObject({ kind: "result", toolError: true });
    expect(log.entries[3]).toMatchObject({ kind: "error", toolError: false, method: "nope/unknown" });
  });

  it("pairs a server-to-client request with the client's reply, not with a client request of the same id", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: 0, method: "initialize" }, 0);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 0, method: "ping" }, 1);
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: 0, result: {} }, 2);
    expect(log.entries[2]).toMatchObject({ method: "ping", pair: 2 });
    expect(Object.keys(log.pending)).toEqual(["server:out:0"]);
  });

  it("keeps the widget's ui/* messages apart: a view reply pairs with the view request of its id only", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: 1, method: "tools/list" }, 10);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {} }, 11, "view");
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: 1, result: { hostContext: {} } }, 15, "view");
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 1, result: { tools: [] } }, 30);
    expect(log.entries.map((e) => [e.peer, e.kind, e.method, e.latencyMs])).toEqual([
      ["server", "request", "tools/list", null],
      ["view", "request", "ui/initialize", null],
      ["view", "result", "ui/initialize", 4],
      ["server", "result", "tools/list", 20],
    ]);
    expect(log.pending).toEqual({});
  });

  it("notes on a request to the server the headers it went out with, by its id", () => {
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "x" };
    let log = createRpcLog();
    log = appendMessage(log, "out", call(1, "x"), 0);
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: "listen:0", method: "subscriptions/listen" }, 1);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 1, method: "ui/initialize" }, 2, "view");
    log = attachHeaders(log, 1, headers);
    log = attachHeaders(log, "listen:0", { "mcp-method": "subscriptions/listen" });
    expect(log.entries.map((e) => e.headers)).toEqual([headers, { "mcp-method": "subscriptions/listen" }, null]);
    // a request that was answered, or never sent from here, keeps the log as it is
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 1, result: {} }, 3);
    expect(attachHeaders(log, 1, {})).toBe(log);
    expect(attachHeaders(log, 9, {})).toBe(log);
  });

  it("marks a reply to an unknown request with '?'", () => {
    const log = appendMessage(createRpcLog(), "in", { jsonrpc: "2.0", id: 99, result: {} }, 0);
    expect(log.entries[0]).toMatchObject({ method: "?", pair: null, latencyMs: null });
  });

  it("interleaves host notes in order", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", call(1, "get_job_events"), 0);
    log = appendHostNote(log, "fault/drop", { tool: "get_job_events" }, 1);
    expect(log.entries.map((e) => `${e.dir}:${e.method}`)).toEqual(["out:tools/call", "host:fault/drop"]);
  });

  it("trims the oldest entries past the cap and still pairs the kept ones", () => {
    let log: RpcLog = createRpcLog();
    for (let i = 0; i < MAX_ENTRIES + 10; i++) log = appendMessage(log, "in", { jsonrpc: "2.0", method: `n/${i}` }, i);
    log = appendMessage(log, "out", call(5, "x"), 0);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 5, result: {} }, 1);
    expect(log.entries).toHaveLength(MAX_ENTRIES);
    expect(log.entries[0].n).toBe(13);
    const reply = log.entries[log.entries.length - 1];
    expect(entryAt(log, reply.pair!)?.pair).toBe(reply.n);
  });

  it("pairs a reply whose request was cleared from view", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", call(3, "get_job_events"), 100);
    log = clearEntries(log);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 3, result: {} }, 160);
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({
      n: 2,
      method: "tools/call",
      tool: "get_job_events",
      latencyMs: 60,
      pair: 1,
    });
  });

  it("filters by method or tool name, case-insensitively", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", call(1, "get_job_events"), 0);
    log = appendMessage(log, "out", call(2, "suggest_gifts"), 0);
    log = appendMessage(log, "in", { jsonrpc: "2.0", method: "notifications/job/progress" }, 0);
    expect(filterEntries(log.entries, "JOB_EVENTS").map((e) => e.n)).toEqual([1]);
    expect(filterEntries(log.entries, "tools/call").map((e) => e.n)).toEqual([1, 2]);
    expect(filterEntries(log.entries, "notifications/job").map((e) => e.n)).toEqual([3]);
    expect(filterEntries(log.entries, "  ")).toHaveLength(3);
  });

  it("filters by one method, alone or with the text", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", call(1, "get_job_events"), 0);
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: 2, method: "resources/read" }, 0);
    log = appendMessage(log, "in", { jsonrpc: "2.0", method: "notifications/resources/updated" }, 0);
    expect(filterEntries(log.entries, "", "resources/read").map((e) => e.n)).toEqual([2]);
    expect(filterEntries(log.entries, "resources", "").map((e) => e.n)).toEqual([2, 3]);
    expect(filterEntries(log.entries, "events", "resources/read")).toEqual([]);
  });
});
