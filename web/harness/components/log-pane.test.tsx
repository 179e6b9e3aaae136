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
  it("shows each call once, at its request, with its round trip and status, marking protocol errors and isError results apart", () => {
    render(<LogPane store={withEntries()} />);
    const all = rows();
    expect(all.map((li) => `${li.dataset.kind} ${li.dataset.method} ${li.dataset.status ?? "-"}`)).toEqual([
      "request tools/call isError",
      "notification notifications/job/progress -",
      "request resources/read error",
      "host fault/drop -",
    ]);
    expect(within(all[0]).getByText("isError")).toBeTruthy();
    expect(within(all[0]).getByText("get_job_events")).toBeTruthy();
    expect(within(all[0]).getByText("0 ms")).toBeTruthy();
    expect(within(all[2]).getByText("error")).toBeTruthy();
    expect(screen.getByText("4 of 4")).toBeTruthy();
  });

  it("shows a widget's call through the host as one line, its server round trip, and all four messages when opened", async () => {
    let t = 1_000;
    const store = createHarnessStore(() => t);
    const s = store.getState();
    const request = { jsonrpc: "2.0", method: "tools/call", params: { name: "get_job_events", arguments: {} } };
    s.logMessage("in", { ...request, id: 3 }, "view");
    t = 1_002;
    s.logMessage("out", { ...request, id: 8 });
    t = 1_047;
    s.logMessage("in", { jsonrpc: "2.0", id: 8, result: { content: [] } });
    s.logMessage("out", { jsonrpc: "2.0", id: 3, result: { content: [] } }, "view");
    render(<LogPane store={store} />);
    const [line] = rows();
    expect(rows()).toHaveLength(1);
    expect(line.dataset.status).toBe("ok");
    expect(within(line).getByText("45 ms")).toBeTruthy();
    expect(within(line).getByText("widget")).toBeTruthy();
    await userEvent.click(within(line).getByRole("button"));
    expect(
      [...line.querySelectorAll(".log-part")].map((p) => p.querySelector(".log-part-caption")!.textContent),
    ).toEqual([
      "← widget → host · request #3",
      "→ harness → server · request #8",
      "← server → harness · result #8 · 45 ms",
      "→ host → widget · result #3 · 47 ms",
    ]);
    // the request to the server is the one the line opens on
    expect(line.querySelectorAll(".log-json")).toHaveLength(1);
    expect(line.querySelector(".log-part[data-peer='server'][data-kind='request'] .log-json")).not.toBeNull();
  });

  it("filters by text and by method", async () => {
    render(<LogPane store={withEntries()} />);
    await userEvent.type(screen.getByLabelText("Filter by method"), "resources");
    expect(rows().map((li) => li.dataset.method)).toEqual(["resources/read"]);
    await userEvent.clear(screen.getByLabelText("Filter by method"));
    await userEvent.selectOptions(screen.getByLabelText("Method"), "tools/call");
    expect(rows().map((li) => li.dataset.method)).toEqual(["tools/call"]);
    expect(
      within(screen.getByLabelText("Method"))
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["All methods", "fault/drop", "notifications/job/progress", "resources/read", "tools/call"]);
  });

  it("expands a call to its request and reply as text, never as markup", async () => {
    render(<LogPane store={withEntries()} />);
    const first = rows()[0];
    await userEvent.click(within(first).getByRole("button"));
    const [request, reply] = [...first.querySelectorAll("pre")];
    expect(request.textContent).toContain('"name": "get_job_events"');
    expect(request.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(request.querySelector("img")).toBeNull();
    expect(reply.textContent).toContain('"isError": true');
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
