// @vitest-environment jsdom
import { render, screen, within, cleanup } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createHarnessStore } from "../store.js";
import { LogPane } from "./log-pane.js";

afterEach(cleanup);

function withEntries() {
  const store = createHarnessStore(() => 1_000);
  const s = store.getState();
  s.logMessage("out", {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_job_events", arguments: { note: "<img src=x onerror=alert(1)>" } },
  });
  s.logMessage("in", { jsonrpc: "2.0", method: "notifications/job/progress", params: { percentage: 40 } });
  s.logMessage("in", { jsonrpc: "2.0", id: 1, result: { isError: true, content: [] } });
  s.logMessage("out", { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "ui://w" } });
  s.logMessage("in", { jsonrpc: "2.0", id: 2, error: { code: -32002, message: "Resource not found" } });
  s.logNote("fault/drop", { tool: "get_job_events" });
  return store;
}

const rows = () => screen.getAllByRole("listitem").filter((li) => li.classList.contains("log-row"));

describe("LogPane", () => {
  it("shows every entry in order, marking protocol errors and isError results apart", () => {
    render(<LogPane store={withEntries()} />);
    const all = rows();
    expect(all.map((li) => li.dataset.kind)).toEqual(["request", "notification", "result", "request", "error", "host"]);
    expect(within(all[2]).getByText("isError")).toBeTruthy();
    expect(within(all[4]).getByText("error")).toBeTruthy();
    expect(within(all[2]).getByText("get_job_events")).toBeTruthy();
    expect(all[4].textContent).toContain("resources/read");
  });

  it("filters by method", async () => {
    render(<LogPane store={withEntries()} />);
    await userEvent.type(screen.getByLabelText("Filter by method"), "resources");
    expect(rows().map((li) => li.dataset.method)).toEqual(["resources/read", "resources/read"]);
  });

  it("expands an entry to its raw JSON, as text and never as markup", async () => {
    render(<LogPane store={withEntries()} />);
    const first = rows()[0];
    await userEvent.click(within(first).getByRole("button"));
    const pre = first.querySelector("pre")!;
    expect(pre.textContent).toContain('"name": "get_job_events"');
    expect(pre.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(pre.querySelector("img")).toBeNull();
    expect(within(first).getByRole("button").getAttribute("aria-expanded")).toBe("true");
  });

  it("shows a request's standard headers and its _meta envelope above the message", async () => {
    const store = createHarnessStore(() => 1_000);
    const s = store.getState();
    s.logMessage("out", {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: {
        name: "suggest_gifts",
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "giftgenius-harness", version: "0.1.0" },
          "openai/locale": "en-US",
        },
      },
    });
    s.logHeaders(4, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "suggest_gifts" });
    render(<LogPane store={store} />);
    const row = rows()[0];
    await userEvent.click(within(row).getByRole("button"));
    const headers = within(row).getByLabelText("Headers");
    expect(headers.textContent).toContain("MCP-Protocol-Version2026-07-28");
    expect(headers.textContent).toContain("Mcp-Namesuggest_gifts");
    const envelope = within(row).getByLabelText("_meta envelope");
    expect(envelope.textContent).toContain("protocolVersion2026-07-28");
    expect(envelope.textContent).toContain('clientInfo{"name":"giftgenius-harness","version":"0.1.0"}');
    expect(envelope.textContent).not.toContain("openai/locale");
  });

  it("shows neither for a 2025-11-25 notification", async () => {
    render(<LogPane store={withEntries()} />);
    const note = rows()[1];
    await userEvent.click(within(note).getByRole("button"));
    expect(within(note).queryByLabelText("Headers")).toBeNull();
    expect(within(note).queryByLabelText("_meta envelope")).toBeNull();
  });
});
