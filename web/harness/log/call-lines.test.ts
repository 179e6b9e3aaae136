import { callLines } from "./call-lines.js";
import { appendHostNote, appendMessage, clearEntries, createRpcLog, filterEntries, type RpcLog } from "./rpc-log.js";

const call = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});
const ok = (id: number, result: Record<string, unknown> = { content: [] }) => ({ jsonrpc: "2.0", id, result });

/** Lines as `method tool status roundTrip [peer:dir:kind of each part]`. */
const shape = (log: RpcLog) =>
  callLines(log.entries).map(
    (l) =>
      `${l.method} ${l.tool ?? "-"} ${l.status ?? "-"} ${l.roundTripMs ?? "-"} ${l.viaWidget ? "widget " : ""}[${l.parts
        .map((e) => `${e.peer}:${e.dir}:${e.kind}`)
        .join(" ")}]`,
  );

describe("log lines", () => {
  it("make a request and its reply one line, at the request, with the round trip and the status", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", call(1, "get_job_events"), 100);
    log = appendMessage(log, "in", { jsonrpc: "2.0", method: "notifications/job/progress" }, 120);
    log = appendHostNote(log, "fault/drop", {}, 130);
    log = appendMessage(log, "in", ok(1), 350);
    expect(shape(log)).toEqual([
      "tools/call get_job_events ok 250 [server:out:request server:in:result]",
      "notifications/job/progress - - - [server:in:notification]",
      "fault/drop - - - [server:host:host]",
    ]);
  });

  it("join a widget's call, the host's request for it and both replies in one line with the server's round trip", () => {
    let log = createRpcLog();
    log = appendMessage(log, "in", call(4, "get_job_events"), 0, "view");
    log = appendMessage(log, "out", call(9, "get_job_events"), 2);
    log = appendMessage(log, "in", ok(9), 40);
    log = appendMessage(log, "out", ok(4), 43, "view");
    expect(shape(log)).toEqual([
      "tools/call get_job_events ok 38 widget [view:in:request server:out:request server:in:result view:out:result]",
    ]);
  });

  it("pair widget calls of the same tool in the order the host passed them on, and leave the host's own calls alone", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", call(1, "start_bulk_gift_analysis"), 0); // the harness's own
    log = appendMessage(log, "in", call(1, "get_job_table"), 1, "view");
    log = appendMessage(log, "in", call(2, "get_job_table"), 2, "view");
    log = appendMessage(log, "out", call(2, "get_job_table"), 3);
    log = appendMessage(log, "out", call(3, "get_job_table"), 4);
    log = appendMessage(log, "in", ok(3), 10);
    log = appendMessage(log, "out", ok(2), 11, "view");
    log = appendMessage(log, "in", ok(2, { isError: true, content: [] }), 20);
    log = appendMessage(log, "out", ok(1, { isError: true, content: [] }), 21, "view");
    expect(shape(log)).toEqual([
      "tools/call start_bulk_gift_analysis pending - [server:out:request]",
      "tools/call get_job_table isError 17 widget [view:in:request server:out:request server:in:result view:out:result]",
      "tools/call get_job_table ok 6 widget [view:in:request server:out:request server:in:result view:out:result]",
    ]);
  });

  it("mark a call the widget lost (a dropped reply) as an error, though the server answered", () => {
    let log = createRpcLog();
    log = appendMessage(log, "in", call(5, "get_job_events"), 0, "view");
    log = appendMessage(log, "out", call(6, "get_job_events"), 1);
    log = appendMessage(log, "in", ok(6), 5);
    log = appendHostNote(log, "fault/drop", {}, 6);
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: 5, error: { code: -32603, message: "lost" } }, 7, "view");
    const [line, note] = callLines(log.entries);
    expect(line).toMatchObject({ status: "error", roundTripMs: 4, viaWidget: true });
    expect(note.method).toBe("fault/drop");
  });

  it("show the widget's own bridge calls, a server's request to the host and a reply whose request was cleared as lines of their own", () => {
    let log = createRpcLog();
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 1, method: "ui/initialize" }, 0, "view");
    log = appendMessage(log, "out", ok(1), 3, "view");
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 0, method: "ping" }, 4);
    log = appendMessage(log, "out", ok(0), 5);
    log = appendMessage(log, "out", call(2, "get_job_events"), 6);
    log = clearEntries(log);
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 2, error: { code: -32600, message: "bad" } }, 9);
    expect(shape(log)).toEqual(["tools/call get_job_events error 3 [server:in:error]"]);
    log = appendMessage(createRpcLog(), "in", { jsonrpc: "2.0", id: 1, method: "ui/initialize" }, 0, "view");
    log = appendMessage(log, "out", ok(1), 3, "view");
    log = appendMessage(log, "in", { jsonrpc: "2.0", id: 0, method: "ping" }, 4);
    log = appendMessage(log, "out", ok(0), 5);
    expect(shape(log)).toEqual([
      "ui/initialize - ok 3 [view:in:request view:out:result]",
      "ping - ok 1 [server:in:request server:out:result]",
    ]);
  });

  it("filter by text and by one method", () => {
    let log = createRpcLog();
    log = appendMessage(log, "out", call(1, "get_job_events"), 0);
    log = appendMessage(log, "in", ok(1), 1);
    log = appendMessage(log, "out", { jsonrpc: "2.0", id: 2, method: "resources/read" }, 2);
    log = appendMessage(log, "in", { jsonrpc: "2.0", method: "notifications/resources/updated" }, 3);
    const lines = callLines(log.entries);
    expect(filterEntries(lines, "", "tools/call").map((l) => l.tool)).toEqual(["get_job_events"]);
    expect(filterEntries(lines, "resources").map((l) => l.method)).toEqual([
      "resources/read",
      "notifications/resources/updated",
    ]);
    expect(filterEntries(lines, "resources", "resources/read").map((l) => l.key)).toEqual([3]);
    expect(filterEntries(lines, "events", "resources/read")).toEqual([]);
    expect(filterEntries(lines, "")).toHaveLength(3);
  });
});
