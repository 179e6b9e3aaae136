/**
 * The hot path of plain tool calls: it answers exactly what the SDK's server answers, in both eras,
 * and leaves every other call, each one the SDK refuses or streams, to the SDK.
 */
import { TOOL } from "../../../shared/tools.js";
import { createJobService } from "../../jobs/job-service.js";
import { createMemoryStore } from "../../jobs/stores/memory.js";
import { matchGifts } from "../../gifts/matcher.js";
import { loadWidget } from "../../widget.js";
import { createToolSpecs } from "../server.js";
import { createToolRegistry } from "../tool-registry.js";
import { modernRoute } from "../modern/modern-http.js";
import { frameModern, replyOf, withTasks } from "../../../test-kit/modern-client.js";
import { startTestServer, type TestServer } from "../../../test-kit/servers/test-server.js";
import { directCall } from "./direct-call.js";

const LEGACY_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const SUGGEST = { recipient: "a designer who loves coffee and jazz", budget: 60, occasion: "birthday", count: 3 };

type Framed = { headers: Record<string, string>; body: string };

function legacy(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Framed {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method, params });
  const all: Record<string, string> = { ...LEGACY_HEADERS, ...headers };
  for (const [key, value] of Object.entries(all)) if (value === "") delete all[key];
  return { headers: all, body };
}

/** The same call asking for progress: the SDK serves it, as SSE. */
function withProgress({ headers, body }: Framed): Framed {
  const message = JSON.parse(body) as { params: { _meta?: Record<string, unknown> } };
  message.params._meta = { ...message.params._meta, progressToken: "p" };
  return { headers, body: JSON.stringify(message) };
}

/** `result` without its view id, which is fresh on every answer. */
function comparable(result: Record<string, unknown> | undefined) {
  const { viewUUID: _, ...meta } = (result?._meta ?? {}) as Record<string, unknown>;
  return { ...result, _meta: meta };
}

describe("which calls it answers", () => {
  const jobs = createJobService({ store: createMemoryStore(), match: matchGifts });
  const tools = createToolRegistry(createToolSpecs({ jobs, matchGifts, widget: loadWidget("dist/widget/index.html") }));
  afterAll(() => jobs.close());

  const answered = async ({ headers, body }: Framed) => {
    const req = new Request("http://127.0.0.1/mcp", { method: "POST", headers, body });
    const parsed: unknown = JSON.parse(body);
    return (await directCall(tools, req, parsed, modernRoute(req, parsed))) !== undefined;
  };

  it("answers a plain call of either era", async () => {
    expect(await answered(legacy("tools/call", { name: TOOL.suggestGifts, arguments: SUGGEST }))).toBe(true);
    expect(await answered(frameModern("tools/call", { name: TOOL.suggestGifts, arguments: SUGGEST }))).toBe(true);
    // a start without the Tasks extension is a plain call too
    const start = { name: TOOL.startBulk, arguments: { csv: "name,interests\nAda,tea", occasion: "holiday" } };
    expect(await answered(frameModern("tools/call", start))).toBe(true);
  });

  const call = { name: TOOL.suggestGifts, arguments: SUGGEST };
  it.each<[string, Framed]>([
    ["a call asking for progress", withProgress(legacy("tools/call", call))],
    ["another method", legacy("tools/list", {})],
    ["an unknown tool", legacy("tools/call", { name: "nope" })],
    ["arguments that are no object", legacy("tools/call", { name: TOOL.suggestGifts, arguments: "x" })],
    ["a task-augmented call", legacy("tools/call", { ...call, task: { ttl: 1000 } })],
    ["an Accept without SSE", legacy("tools/call", call, { accept: "application/json" })],
    ["a content type that is not JSON", legacy("tools/call", call, { "content-type": "text/plain" })],
    ["a revision not served", legacy("tools/call", call, { "mcp-protocol-version": "1999-01-01" })],
    ["a 2026-07-28 call without Mcp-Name", frameModern("tools/call", call, { headers: { "mcp-name": "" } })],
    [
      "a base64 Mcp-Name",
      frameModern("tools/call", call, { headers: { "mcp-name": "=?base64?c3VnZ2VzdF9naWZ0cw==?=" } }),
    ],
    ["an Mcp-Name of another tool", frameModern("tools/call", call, { headers: { "mcp-name": TOOL.listJobs } })],
    ["an Mcp-Method that differs", frameModern("tools/call", call, { headers: { "mcp-method": "tools/list" } })],
    ["a wait with log lines", frameModern("tools/call", { name: TOOL.waitForJob, arguments: { jobId: "j" } })],
    [
      "a start as a task",
      frameModern("tools/call", { name: TOOL.startBulk, arguments: { csv: "name\nAda" } }, { capabilities: withTasks }),
    ],
  ])("leaves %s to the SDK", async (_, framed) => {
    expect(await answered(framed)).toBe(false);
  });
});

describe("what it answers", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const post = async ({ headers, body }: Framed) => {
    const response = await fetch(server.mcpUrl, { method: "POST", headers, body });
    return { status: response.status, type: response.headers.get("content-type"), reply: await replyOf(response) };
  };

  it.each([
    ["a gift list", { name: TOOL.suggestGifts, arguments: SUGGEST }],
    ["invalid arguments", { name: TOOL.suggestGifts, arguments: { budget: -1 } }],
    ["an unknown job", { name: TOOL.getJobEvents, arguments: { jobId: "no-such-job" } }],
  ])("answers %s as the SDK does, in both eras", async (_, params) => {
    for (const framed of [legacy("tools/call", params), frameModern("tools/call", params)]) {
      const direct = await post(framed);
      const sdk = await post(withProgress(framed));
      expect(direct.type).toBe("application/json");
      expect(sdk.type).toBe("text/event-stream");
      expect(direct.status).toBe(200);
      expect(direct.reply.id).toBe(sdk.reply.id);
      expect(comparable(direct.reply.result)).toEqual(comparable(sdk.reply.result));
    }
  });

  it("answers a 2026-07-28 call with its revision's result type and the server's name", async () => {
    const { reply } = await post(frameModern("tools/call", { name: TOOL.suggestGifts, arguments: SUGGEST }));
    expect(reply.result).toMatchObject({
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "giftgenius" }, viewUUID: expect.any(String) },
    });
  });
});
