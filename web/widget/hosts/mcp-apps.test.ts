/**
 * The MCP Apps adapter against the real peer: the official `AppBridge` (host side of
 * @modelcontextprotocol/ext-apps 2) in front of the real server, through the official v2 client
 * in either protocol revision, linked to the adapter in memory. The browser tests
 * (web/harness/e2e.test.ts, protocols.e2e.test.ts) run the built widget the same way over postMessage.
 */
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
} from "@modelcontextprotocol/client";
import {
  AppBridge,
  type McpUiHostCapabilities,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { CancelJobOutput, StartBulkOutput, TOOL } from "../../../shared/tools.js";
import { startTestServer, type TestServer } from "../../../test-kit/servers/test-server.js";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import { connectModernClient } from "../../../test-kit/modern-client.js";
import { followJob } from "../follow-job.js";
import type { Host } from "../host.js";
import { createJobViews } from "../job-views.js";
import { createMcpAppsHost, PROTOCOL_VERSION } from "./mcp-apps.js";
import type { Port } from "./mcp-apps.js";

const CONTEXT: McpUiHostContext = {
  theme: "light",
  locale: "ko-KR",
  displayMode: "inline",
  availableDisplayModes: ["inline", "fullscreen"],
  containerDimensions: { maxHeight: 500 },
};

let server: TestServer;
/** A 2025-11-25 client (the plain initialize handshake) and a 2026-07-28 one, both the official v2 client. */
let client: Client;
let modern: Client;
beforeAll(async () => {
  server = await startTestServer();
  client = new Client({ name: "test-host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(server.mcpUrl));
  modern = await connectModernClient(server.mcpUrl);
});
afterAll(async () => {
  await client.close();
  await modern.close();
  await server.close();
});

/** A widget window for the adapter: a parent frame to talk to, and timers. */
const widgetWindow = () => ({ parent: {}, setTimeout: globalThis.setTimeout.bind(globalThis) }) as unknown as Window;

/** The official host bridge (in front of `mcp`) on one end of an in-memory pair, our adapter on the other; every message recorded. */
async function connect(
  context: McpUiHostContext = CONTEXT,
  mcp: Client = client,
  capabilities: McpUiHostCapabilities = { serverTools: {} },
) {
  const [viewEnd, hostEnd] = InMemoryTransport.createLinkedPair();
  const bridge = new AppBridge(mcp, { name: "test-host", version: "1.0.0" }, capabilities, { hostContext: context });
  const sent: JSONRPCMessage[] = [];
  const initialized = new Promise<void>((resolve) => bridge.addEventListener("initialized", () => resolve()));
  await bridge.connect(hostEnd);
  const listeners = new Set<(m: unknown) => void>();
  viewEnd.onmessage = (m) => listeners.forEach((l) => l(m));
  await viewEnd.start();
  const port: Port = {
    post(message) {
      sent.push(message as JSONRPCMessage);
      void viewEnd.send(message as JSONRPCMessage);
    },
    listen(receive) {
      listeners.add(receive);
      return () => void listeners.delete(receive);
    },
  };
  const host = createMcpAppsHost(widgetWindow(), port);
  await initialized;
  return { bridge, host, sent };
}

const methods = (sent: JSONRPCMessage[]) => sent.flatMap((m) => ("method" in m ? [m.method] : []));

describe("the MCP Apps adapter against AppBridge and the real server", () => {
  let host: Host | undefined;
  let bridge: AppBridge | undefined;
  afterEach(async () => {
    host?.dispose();
    await bridge?.close();
  });

  it("initializes first, then takes the host context, tool input and tool result", async () => {
    const c = await connect();
    ({ host, bridge } = c);
    expect(methods(c.sent).slice(0, 2)).toEqual(["ui/initialize", "ui/notifications/initialized"]);
    expect(c.sent[0]).toMatchObject({
      params: { protocolVersion: PROTOCOL_VERSION, appInfo: { name: "GiftGenius" }, appCapabilities: {} },
    });
    expect(bridge.getAppVersion()).toEqual({ name: "GiftGenius", version: "0.1.0" });
    expect(host.getGlobals()).toMatchObject({
      connection: "ready",
      theme: "light",
      locale: "ko-KR",
      displayMode: "inline",
      displayModes: ["inline", "fullscreen"],
      maxHeight: 500,
      toolOutput: null,
    });

    const args = { occasion: "birthday", budget: 40 };
    const result = await client.callTool({ name: TOOL.suggestGifts, arguments: args });
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
    await vi.waitFor(() => expect(host?.getGlobals().toolOutput).toEqual(result.structuredContent));
    expect(host.getGlobals()).toMatchObject({ toolInput: args, toolResponseMetadata: result._meta ?? null });

    await bridge.sendToolCancelled({ reason: "the user stopped it" });
    await vi.waitFor(() => expect(host?.getGlobals().toolCancelled).toBe(true));
  });

  it.each([
    ["2025-11-25", () => client],
    ["2026-07-28", () => modern],
  ])("follows a job to its result through tools/call in %s, folding the events it gets", async (_, mcp) => {
    const c = await connect(CONTEXT, mcp());
    ({ host, bridge } = c);
    const started = await host.callTool(
      TOOL.startBulk,
      { csv: employeeCsv(2_000), occasion: "year-end", budgetPerPerson: 30 },
      StartBulkOutput,
    );
    if (!started.ok) throw new Error(started.error.message);
    const store = createJobViews();
    const release = followJob({ host, store, jobId: started.value.jobId, waitMs: 5_000 });
    await vi.waitFor(() => expect(store.getState().jobs[started.value.jobId]?.status).toBe("completed"), {
      timeout: 20_000,
    });
    release();
    const view = store.getState().jobs[started.value.jobId];
    expect(view).toMatchObject({ percentage: 100, resultCount: 2_000 });
    expect(view.stages.map((s) => s.state)).toEqual(["done", "done", "done", "done"]);
    expect(methods(c.sent).filter((m) => m === "tools/call").length).toBeGreaterThan(1);
  });

  it("cancels a job through the host", async () => {
    const c = await connect();
    ({ host, bridge } = c);
    const started = await host.callTool(
      TOOL.startBulk,
      { csv: employeeCsv(150_000), occasion: "year-end", budgetPerPerson: 30 },
      StartBulkOutput,
    );
    if (!started.ok) throw new Error(started.error.message);
    const canceled = await host.callTool(TOOL.cancelJob, { jobId: started.value.jobId }, CancelJobOutput);
    expect(canceled).toEqual({ ok: true, value: { jobId: started.value.jobId, status: "canceled", changed: true } });
  });

  it("follows host-context changes, asks for fullscreen only where offered, and answers teardown", async () => {
    const c = await connect();
    ({ host, bridge } = c);
    const seen: string[] = [];
    host.subscribe(() => seen.push(host!.getGlobals().theme));
    bridge.setHostContext({ ...CONTEXT, theme: "dark", containerDimensions: { maxHeight: 700 } });
    await vi.waitFor(() => expect(host?.getGlobals()).toMatchObject({ theme: "dark", maxHeight: 700 }));
    expect(seen).toEqual(["dark"]);

    const asked: string[] = [];
    bridge.onrequestdisplaymode = async ({ mode }) => {
      asked.push(mode);
      return { mode };
    };
    await host.requestDisplayMode("pip"); // not offered: never asked
    await host.requestDisplayMode("fullscreen");
    expect(asked).toEqual(["fullscreen"]);
    expect(host.getGlobals().displayMode).toBe("fullscreen");

    let tornDown = 0;
    host.onTeardown(() => tornDown++);
    await expect(bridge.teardownResource({}, { timeout: 2_000 })).resolves.toEqual({});
    expect(tornDown).toBe(1);
  });

  it("tells the model through ui/update-model-context and the chat through ui/message where offered", async () => {
    const c = await connect(CONTEXT, client, {
      serverTools: {},
      updateModelContext: { text: {}, structuredContent: {} },
      message: { text: {} },
    });
    ({ host, bridge } = c);
    const contexts: unknown[] = [];
    const messages: unknown[] = [];
    bridge.onupdatemodelcontext = async (params) => (contexts.push(params), {});
    bridge.onmessage = async (params) => (messages.push(params), {});
    expect(host.conversation()).toEqual({ modelContext: true, followUp: true });
    const text = "---\njobId: job_1\nstatus: running\n---\nThe person sees this in the GiftGenius card.";
    await expect(host.updateModelContext({ text, structured: { jobId: "job_1", status: "running" } })).resolves.toBe(
      true,
    );
    await expect(host.sendFollowUp("The gift analysis is done. Please sum it up for me.")).resolves.toBe(true);
    expect(contexts).toEqual([
      { content: [{ type: "text", text }], structuredContent: { jobId: "job_1", status: "running" } },
    ]);
    expect(messages).toEqual([
      { role: "user", content: [{ type: "text", text: "The gift analysis is done. Please sum it up for me." }] },
    ]);
    // a host that turns the message down says so, and the card knows it was not posted
    bridge.onmessage = async () => ({ isError: true });
    await expect(host.sendFollowUp("Again")).resolves.toBe(false);
  });

  it("says nothing to the conversation where the host offers neither", async () => {
    const c = await connect();
    ({ host, bridge } = c);
    expect(host.conversation()).toEqual({ modelContext: false, followUp: false });
    await expect(host.updateModelContext({ text: "status: running", structured: {} })).resolves.toBe(false);
    await expect(host.sendFollowUp("Done")).resolves.toBe(false);
    expect(methods(c.sent)).not.toContain("ui/update-model-context");
    expect(methods(c.sent)).not.toContain("ui/message");
  });

  it("says there is no host when nothing answers ui/initialize", async () => {
    vi.useFakeTimers();
    try {
      const silent: Port = { post: () => {}, listen: () => () => {} };
      const lonely = createMcpAppsHost(widgetWindow(), silent);
      expect(lonely.getGlobals().connection).toBe("connecting");
      await vi.advanceTimersByTimeAsync(5_000);
      expect(lonely.getGlobals().connection).toBe("none");
      lonely.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
