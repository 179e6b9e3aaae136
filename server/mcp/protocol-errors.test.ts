import { FILE_TOOL } from "../../shared/files.js";
import { TOOL } from "../../shared/tools.js";
import {
  openRawSession,
  postRaw,
  readSse,
  startTestServer,
  type TestServer,
} from "../../test-kit/servers/test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

type RpcError = { jsonrpc: "2.0"; id: unknown; error: { code: number; message: string; data?: unknown } };

async function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: RpcError }> {
  const response = await postRaw(server.mcpUrl, body, headers);
  return { status: response.status, json: await response.json() };
}

const rpc = (id: number, method: string, params?: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

describe("protocol errors on POST /mcp", () => {
  it("answers unparseable JSON with -32700", async () => {
    const { status, json } = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(status).toBe(400);
    expect(json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
  });

  it("answers JSON that is not JSON-RPC with -32600 saying what is wrong", async () => {
    const cases: [string, RegExp][] = [
      ['{"hello": "world"}', /"jsonrpc": "2.0"/],
      ['{"jsonrpc": "2.0", "id": 1}', /"method"/],
      ['{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}', /"id" must be a string or an integer/],
      ['{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]}', /"params" must be an object/],
      ["[]", /batch must hold 1 to 100 messages/],
      ['"just a string"', /JSON object/],
    ];
    for (const [body, message] of cases) {
      const { status, json } = await post(body);
      expect(status, body).toBe(400);
      expect(json.error.code, body).toBe(-32600);
      expect(json.error.message, body).toMatch(message);
    }
  });

  it("answers an unknown method with -32601, even one named like an object's own property", async () => {
    for (const method of ["gifts/wrap", "toString", "constructor", "__proto__"]) {
      const { json } = await post(rpc(7, method));
      expect(json, method).toMatchObject({ id: 7, error: { code: -32601 } });
    }
  });

  it("answers tools/call params that break the request schema with -32602 naming the expected fields", async () => {
    const { status, json } = await post(
      rpc(8, "tools/call", { tool: "suggest_gifts", args: { occasion: "birthday" } }),
    );
    expect(status).toBe(200);
    expect(json).toMatchObject({ id: 8, error: { code: -32602 } });
    expect(json.error.message).toContain("`params.name` is required");
    expect(json.error.message).toContain('"arguments"?: object');
    expect(json.error.message).toContain("tool, args");
    const missing = await post(rpc(9, "tools/call"));
    expect(missing.json.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("`params` is required"),
    });
    const badArgs = await post(rpc(10, "tools/call", { name: "suggest_gifts", arguments: "budget=50" }));
    expect(badArgs.json.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("`params.arguments` must be an object"),
    });
  });

  it("answers other params that break their request schema with -32602 too", async () => {
    const { json } = await post(rpc(11, "prompts/get", { prompt: "gift_congrats_style" }));
    expect(json.error).toMatchObject({ code: -32602, message: expect.stringContaining("`params.name` is required") });
    const level = await post(rpc(12, "logging/setLevel", { level: "loud" }));
    expect(level.json.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("`params.level` must be one of"),
    });
  });

  it("answers an initialize without its required params with -32602", async () => {
    const { status, json } = await post(rpc(1, "initialize", { capabilities: {} }));
    expect(status).toBe(400);
    expect(json).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(json.error.message).toContain("`params.protocolVersion` is required");
  });

  it("checks each request of a batch inside a session, answering on its stream", async () => {
    const session = await openRawSession(server.mcpUrl);
    const response = await postRaw(
      server.mcpUrl,
      JSON.stringify([JSON.parse(rpc(21, "tools/call", { tool: "x" })), JSON.parse(rpc(22, "tools/list"))]),
      session.headers,
    );
    const sse = readSse(response);
    const answers = new Map<number, { error?: { code: number }; result?: { tools: unknown[] } }>();
    while (answers.size < 2) {
      const message = JSON.parse((await sse.next()).data || "{}");
      if (message.id !== undefined) answers.set(message.id, message);
    }
    await sse.close();
    expect(answers.get(21)?.error?.code).toBe(-32602);
    expect(answers.get(22)?.result?.tools.length).toBe(Object.keys({ ...TOOL, ...FILE_TOOL }).length);
  });
});
