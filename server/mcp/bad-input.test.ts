/**
 * A battery of bad input against the real server over HTTP: each case says what must come back
 * (HTTP status and JSON-RPC error code, or an `isError` tool result with a sentence), and every
 * answer must be JSON without a stack trace or a file path. The server must still answer after.
 */
import { FILE_TOOL } from "../../shared/files.js";
import { TOOL } from "../../shared/tools.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { matchGifts } from "../gifts/matcher.js";
import {
  openRawSession,
  postRaw,
  readSse,
  startTestServer,
  type TestServer,
} from "../../test-kit/servers/test-server.js";

/** Small CSV limits, so "just over the limit" stays small. */
const MAX_CSV_BYTES = 4096;
const MAX_ROWS = 50;
/** The app's default body limit. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** The longest an error message may be: nothing a caller sent is echoed back unbounded. */
const MAX_MESSAGE_CHARS = 2_000;

let server: TestServer;
let session: Awaited<ReturnType<typeof openRawSession>>;
/** A session that was opened and then ended with DELETE. */
let closedSession: Record<string, string>;

beforeAll(async () => {
  const jobs = createJobService({
    store: createMemoryStore(),
    match: matchGifts,
    limits: { maxCsvBytes: MAX_CSV_BYTES, maxRows: MAX_ROWS },
  });
  server = await startTestServer({ jobs });
  session = await openRawSession(server.mcpUrl);
  const ended = await openRawSession(server.mcpUrl);
  const del = await fetch(server.mcpUrl, { method: "DELETE", headers: ended.headers });
  await del.text();
  closedSession = ended.headers;
});
afterAll(async () => {
  await server.close();
});

type Json = Record<string, unknown>;
/** Error code, plus what the message must say. */
type RpcExpect = { status: number; code: number; message?: RegExp };
/** A tool result with `isError: true` whose text matches. */
type ToolExpect = { status: 200; toolError: RegExp };
/** A normal result (the input was odd but fine). */
type OkExpect = { status: 200; ok: true; id?: unknown };
/** Accepted without a body (notifications, responses). */
type AcceptedExpect = { status: 202 };
type Expect = RpcExpect | ToolExpect | OkExpect | AcceptedExpect;

type Case = {
  name: string;
  body: string | Uint8Array<ArrayBuffer> | (() => string);
  headers?: Record<string, string>;
  method?: string;
  /** Sent in the open session (answers come over SSE) rather than stateless. */
  inSession?: boolean;
  /** Sent with the id of the session that was ended. */
  closed?: boolean;
  expect: Expect;
};

const msg = (m: Json) => JSON.stringify({ jsonrpc: "2.0", ...m });
const req = (method: string, params?: unknown, id: unknown = 1) => msg({ id, method, params });
const call = (name: string, args?: unknown, id: unknown = 1) =>
  req("tools/call", args === undefined ? { name } : { name, arguments: args }, id);
const nested = (depth: number, leaf: unknown = 1): string =>
  '{"a":'.repeat(depth) + JSON.stringify(leaf) + "}".repeat(depth);
const nestedArray = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);
const megabyte = "x".repeat(1024 * 1024);
const utf8 = (s: string) => new TextEncoder().encode(s);
const withBytes = (before: string, bytes: number[], after: string) =>
  new Uint8Array([...utf8(before), ...bytes, ...utf8(after)]);

const PARSE = { status: 400, code: -32700 } as const;
const INVALID = (message?: RegExp): RpcExpect => ({ status: 400, code: -32600, message });
const PARAMS = (message?: RegExp): RpcExpect => ({ status: 200, code: -32602, message });
const TOOL_ERROR = (toolError: RegExp): ToolExpect => ({ status: 200, toolError });

const JOB_TOOLS = ["get_job_events", "get_job_result", "cancel_job", "wait_for_job"] as const;
const bulk = (csv: string, extra: Json = {}) =>
  call("start_bulk_gift_analysis", { csv, occasion: "holiday", budgetPerPerson: 40, ...extra });
const HEADER = "name,department,interests\n";
const rows = (n: number) => Array.from({ length: n }, (_, i) => `Person ${i},Team,books;tea`).join("\n");

const CASES: Case[] = [
  // — the body itself
  { name: "truncated JSON", body: '{"jsonrpc": "2.0", "id": 1, "method": ', expect: PARSE },
  { name: "single-quoted JSON", body: "{'jsonrpc': '2.0'}", expect: PARSE },
  { name: "empty body", body: "", expect: PARSE },
  { name: "whitespace body", body: " \n\t ", expect: PARSE },
  { name: "trailing garbage", body: req("ping") + "}", expect: PARSE },
  { name: "NaN literal", body: '{"jsonrpc":"2.0","id":NaN,"method":"ping"}', expect: PARSE },
  { name: "invalid UTF-8 outside a string", body: withBytes("", [0xff, 0xfe], req("ping")), expect: PARSE },
  {
    name: "invalid UTF-8 inside an argument (read as U+FFFD)",
    body: withBytes(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"occasion":"birth',
      [0xc3, 0x28, 0xff],
      'day","budget":30}}}',
    ),
    expect: { status: 200, ok: true },
  },
  {
    name: "lone surrogate escape in a string",
    body: call("suggest_gifts", { occasion: "\ud800", budget: 30 }),
    expect: { status: 200, ok: true },
  },
  {
    name: "body over the size limit",
    body: () => " ".repeat(MAX_BODY_BYTES + 1) + req("ping"),
    expect: { status: 413, code: -32600, message: /too large/ },
  },
  { name: "JSON string", body: '"ping"', expect: INVALID(/JSON object/) },
  { name: "JSON number", body: "42", expect: INVALID(/JSON object/) },
  { name: "JSON null", body: "null", expect: INVALID(/JSON object/) },
  // — headers
  {
    name: "content type text/plain",
    body: req("ping"),
    headers: { "content-type": "text/plain" },
    expect: { status: 415, code: -32000 },
  },
  {
    name: "content type form",
    body: req("ping"),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    expect: { status: 415, code: -32000 },
  },
  {
    name: "Accept text/html",
    body: req("ping"),
    headers: { accept: "text/html" },
    expect: { status: 406, code: -32000 },
  },
  { name: "Accept missing", body: req("ping"), headers: { accept: "" }, expect: { status: 406, code: -32000 } },
  {
    name: "Accept without event-stream",
    body: req("ping"),
    headers: { accept: "application/json" },
    expect: { status: 406, code: -32000 },
  },
  { name: "GET without a session", method: "GET", body: "", expect: { status: 405, code: -32600 } },
  { name: "PUT", method: "PUT", body: req("ping"), expect: { status: 405, code: -32600 } },
  { name: "DELETE without a session", method: "DELETE", body: "", expect: { status: 400, code: -32600 } },
  // — the envelope
  {
    name: "jsonrpc 1.0",
    body: JSON.stringify({ jsonrpc: "1.0", id: 1, method: "ping" }),
    expect: INVALID(/"jsonrpc": "2.0"/),
  },
  { name: "jsonrpc missing", body: JSON.stringify({ id: 1, method: "ping" }), expect: INVALID(/"jsonrpc": "2.0"/) },
  {
    name: "jsonrpc as a number",
    body: JSON.stringify({ jsonrpc: 2, id: 1, method: "ping" }),
    expect: INVALID(/"jsonrpc": "2.0"/),
  },
  { name: "neither method nor result", body: msg({ id: 1 }), expect: INVALID(/"method"/) },
  { name: "method as a number", body: msg({ id: 1, method: 7 }), expect: INVALID(/"method" must be a string/) },
  {
    name: "extra top-level field",
    body: msg({ id: 1, method: "ping", tool: "x" }),
    expect: INVALID(/unexpected field/),
  },
  { name: "params as an array", body: req("ping", [1]), expect: INVALID(/"params" must be an object/) },
  { name: "params null", body: req("ping", null), expect: INVALID(/"params" must be an object/) },
  {
    name: "progressToken an object",
    body: req("ping", { _meta: { progressToken: {} } }),
    expect: INVALID(/progressToken/),
  },
  // — odd ids
  { name: "id null", body: req("ping", undefined, null), expect: INVALID(/"id"/) },
  { name: "id object", body: req("ping", undefined, { a: 1 }), expect: INVALID(/"id"/) },
  { name: "id array", body: req("ping", undefined, [1]), expect: INVALID(/"id"/) },
  { name: "id true", body: req("ping", undefined, true), expect: INVALID(/"id"/) },
  { name: "id false", body: req("ping", undefined, false), expect: INVALID(/"id"/) },
  { name: "id 1.5", body: req("ping", undefined, 1.5), expect: INVALID(/"id"/) },
  { name: "id 1e308", body: '{"jsonrpc":"2.0","id":1e308,"method":"ping"}', expect: INVALID(/"id"/) },
  { name: "id 2^53", body: '{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}', expect: INVALID(/"id"/) },
  { name: "id 1e308 on a response", body: '{"jsonrpc":"2.0","id":1e308,"result":{}}', expect: INVALID(/"id"/) },
  { name: "id -0", body: '{"jsonrpc":"2.0","id":-0,"method":"ping"}', expect: { status: 200, ok: true, id: 0 } },
  { name: "id negative", body: req("ping", undefined, -5), expect: { status: 200, ok: true, id: -5 } },
  { name: "id empty string", body: req("ping", undefined, ""), expect: { status: 200, ok: true, id: "" } },
  { name: "id 100 kB string", body: req("ping", undefined, "i".repeat(100_000)), expect: { status: 200, ok: true } },
  // — batches
  { name: "empty batch", body: "[]", expect: INVALID(/batch must hold 1 to 100/) },
  {
    name: "batch over the limit",
    body: JSON.stringify(Array.from({ length: 101 }, (_, i) => JSON.parse(req("ping", undefined, i)))),
    expect: INVALID(/batch must hold 1 to 100/),
  },
  { name: "mixed batch", body: `[${req("ping")},{"jsonrpc":"1.0"}]`, expect: INVALID(/message 1/) },
  { name: "batch of numbers", body: "[1,2,3]", expect: INVALID(/message 0/) },
  { name: "nested batch", body: `[[${req("ping")}]]`, expect: INVALID(/message 0/) },
  // — methods
  { name: "unknown method", body: req("gifts/wrap"), expect: { status: 200, code: -32601 } },
  { name: "empty method", body: req(""), expect: { status: 200, code: -32601 } },
  { name: "1 MB method name", body: req(megabyte), expect: { status: 200, code: -32601 } },
  { name: "rpc.* method", body: req("rpc.discover"), expect: { status: 200, code: -32601 } },
  { name: "initialize without params", body: req("initialize"), expect: { status: 400, code: -32602 } },
  {
    name: "initialize with a numeric protocolVersion",
    body: req("initialize", { protocolVersion: 1, capabilities: {}, clientInfo: { name: "x", version: "1" } }),
    expect: { status: 400, code: -32602, message: /protocolVersion/ },
  },
  {
    name: "notification of an unknown method",
    body: msg({ method: "notifications/nothing" }),
    expect: { status: 202 },
  },
  { name: "a stray response", body: msg({ id: 99, result: {} }), expect: { status: 202 } },
  {
    name: "a response with a malformed error",
    body: msg({ id: 99, error: { code: "x" } }),
    expect: INVALID(/"error"/),
  },
  // — tools/call shape
  {
    name: "old tool/args shape",
    body: req("tools/call", { tool: "suggest_gifts", args: { occasion: "birthday", budget: 30 } }),
    expect: PARAMS(/`params.name` is required.*tool, args/),
  },
  { name: "tools/call without params", body: req("tools/call"), expect: PARAMS(/`params` is required/) },
  {
    name: "tools/call with a numeric name",
    body: req("tools/call", { name: 5 }),
    expect: PARAMS(/`params.name` must be a string/),
  },
  {
    name: "tools/call with arguments as a string",
    body: req("tools/call", { name: "suggest_gifts", arguments: "budget=50" }),
    expect: PARAMS(/`params.arguments` must be an object/),
  },
  {
    name: "tools/call with arguments as an array",
    body: req("tools/call", { name: "suggest_gifts", arguments: [] }),
    expect: PARAMS(/`params.arguments` must be an object/),
  },
  {
    name: "unknown tool",
    body: call("gift_wrap", {}),
    expect: PARAMS(/Unknown tool "gift_wrap". Available tools: suggest_gifts/),
  },
  { name: "unknown tool with a 1 MB name", body: call(megabyte, {}), expect: PARAMS(/Unknown tool/) },
  {
    name: "old shape with a 1 MB key",
    body: req("tools/call", { [megabyte]: 1 }),
    expect: PARAMS(/`params.name` is required/),
  },
  {
    name: "other params broken",
    body: req("prompts/get", { prompt: "gift_congrats_style" }),
    expect: PARAMS(/`params.name` is required/),
  },
  { name: "unknown prompt", body: req("prompts/get", { name: "nope" }), expect: { status: 200, code: -32602 } },
  { name: "logging level unknown", body: req("logging/setLevel", { level: "loud" }), expect: PARAMS(/one of/) },
  // — suggest_gifts arguments
  {
    name: "suggest_gifts without arguments",
    body: call("suggest_gifts"),
    expect: TOOL_ERROR(/`occasion` is required/),
  },
  {
    name: "suggest_gifts occasion a number",
    body: call("suggest_gifts", { occasion: 5, budget: 30 }),
    expect: TOOL_ERROR(/`occasion` must be a string, got a number/),
  },
  {
    name: "suggest_gifts budget a string",
    body: call("suggest_gifts", { occasion: "birthday", budget: "30" }),
    expect: TOOL_ERROR(/`budget` must be a number, got a string/),
  },
  {
    name: "suggest_gifts budget negative",
    body: call("suggest_gifts", { occasion: "birthday", budget: -1 }),
    expect: TOOL_ERROR(/`budget` must be greater than 0/),
  },
  {
    name: "suggest_gifts count 1.5",
    body: call("suggest_gifts", { occasion: "birthday", budget: 30, count: 1.5 }),
    expect: TOOL_ERROR(/`count`/),
  },
  {
    name: "suggest_gifts count 21",
    body: call("suggest_gifts", { occasion: "birthday", budget: 30, count: 21 }),
    expect: TOOL_ERROR(/`count` must be at most 20/),
  },
  {
    name: "suggest_gifts 1 MB occasion",
    body: call("suggest_gifts", { occasion: megabyte, budget: 30 }),
    expect: TOOL_ERROR(/`occasion`/),
  },
  {
    name: "suggest_gifts nested object as recipient",
    body: () =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"occasion":"x","budget":30,"recipient":${nested(50)}}}}`,
    expect: TOOL_ERROR(/`recipient` must be a string, got an object/),
  },
  // — start_bulk_gift_analysis arguments
  {
    name: "bulk budget a string",
    body: call("start_bulk_gift_analysis", { csv: HEADER + rows(1), occasion: "x", budgetPerPerson: "40" }),
    expect: TOOL_ERROR(/`budgetPerPerson` must be a number, got a string/),
  },
  {
    name: "bulk employees an object",
    body: call("start_bulk_gift_analysis", { employees: {}, occasion: "x", budgetPerPerson: 40 }),
    expect: TOOL_ERROR(/`employees` must be an array/),
  },
  {
    name: "bulk employee without interests",
    body: call("start_bulk_gift_analysis", { employees: [{ name: "A" }], occasion: "x", budgetPerPerson: 40 }),
    expect: TOOL_ERROR(/`employees\[0\].interests` is required/),
  },
  {
    // no list at all: the widget asks the person for a file (awaitingFile)
    name: "bulk without any staff list",
    body: call("start_bulk_gift_analysis", { occasion: "x", budgetPerPerson: 40 }),
    expect: { status: 200, ok: true },
  },
  {
    name: "bulk both csv and employees",
    body: call("start_bulk_gift_analysis", {
      csv: HEADER + rows(1),
      employees: [{ name: "Ada", interests: ["tea"] }],
      occasion: "x",
      budgetPerPerson: 40,
    }),
    expect: TOOL_ERROR(/Both csv and employees/),
  },
  {
    name: "bulk blank occasion",
    body: bulk(HEADER + rows(1), { occasion: "   " }),
    expect: TOOL_ERROR(/occasion is empty/),
  },
  {
    name: "bulk locale too long",
    body: bulk(HEADER + rows(1), { locale: "x".repeat(36) }),
    expect: TOOL_ERROR(/`locale` must be at most 35 characters/),
  },
  // — CSV edge cases
  { name: "csv empty", body: bulk(""), expect: TOOL_ERROR(/\w+ \w+/) },
  { name: "csv header only", body: bulk(HEADER), expect: TOOL_ERROR(/\w+ \w+/) },
  {
    name: "csv just over the size limit",
    body: bulk(HEADER + rows(10) + "\n" + "z".repeat(MAX_CSV_BYTES)),
    expect: TOOL_ERROR(/\w+ \w+/),
  },
  { name: "csv just over the row limit", body: bulk(HEADER + rows(MAX_ROWS + 1)), expect: TOOL_ERROR(/\w+ \w+/) },
  {
    name: "csv binary bytes",
    body: bulk("\u0000\u0001\u0002\u00ff\ufffd\u0007\n\u0000,\u0000"),
    expect: TOOL_ERROR(/\w+ \w+/),
  },
  {
    // the separator is detected: a semicolon file is read as it is
    name: "csv semicolon-delimited",
    body: bulk("name;department;interests\nAda;Eng;books"),
    expect: { status: 200, ok: true },
  },
  {
    name: "csv formula cells",
    body: bulk(HEADER + '=HYPERLINK("http://x","y"),=1+1,@SUM(A1)\n+cmd,-2,books'),
    expect: { status: 200, ok: true },
  },
  // — job tools with unknown or malformed ids
  ...JOB_TOOLS.flatMap((tool): Case[] => [
    {
      name: `${tool} unknown job id`,
      body: call(tool, { jobId: "00000000-0000-4000-8000-000000000000" }),
      expect: TOOL_ERROR(/\w+ \w+/),
    },
    {
      name: `${tool} malformed job id`,
      body: call(tool, { jobId: "../../etc/passwd\u0000" }),
      expect: TOOL_ERROR(/\w+ \w+/),
    },
    { name: `${tool} empty job id`, body: call(tool, { jobId: "" }), expect: TOOL_ERROR(/`jobId` must not be empty/) },
    {
      name: `${tool} numeric job id`,
      body: call(tool, { jobId: 12 }),
      expect: TOOL_ERROR(/`jobId` must be a string, got a number/),
    },
    {
      name: `${tool} 1 MB job id`,
      body: call(tool, { jobId: megabyte }),
      expect: TOOL_ERROR(/`jobId`/),
    },
  ]),
  {
    name: "get_job_events afterSeq -1",
    body: call("get_job_events", { jobId: "j", afterSeq: -1 }),
    expect: TOOL_ERROR(/`afterSeq` must be at least 0/),
  },
  {
    name: "get_job_events waitMs too long",
    body: call("get_job_events", { jobId: "j", waitMs: 1e9 }),
    expect: TOOL_ERROR(/`waitMs` must be at most 25000/),
  },
  {
    name: "get_job_result limit 0",
    body: call("get_job_result", { jobId: "j", limit: 0 }),
    expect: TOOL_ERROR(/`limit` must be at least 1/),
  },
  {
    name: "wait_for_job timeout a string",
    body: call("wait_for_job", { jobId: "j", timeoutMs: "soon" }),
    expect: TOOL_ERROR(/`timeoutMs` must be a number/),
  },
  // — resources
  {
    name: "unknown resource",
    body: req("resources/read", { uri: "gifts://nothing" }),
    expect: { status: 200, code: -32002 },
  },
  {
    name: "resource of an unknown job",
    body: req("resources/read", { uri: "gifts://jobs/nope/result" }),
    expect: { status: 200, code: -32002 },
  },
  {
    name: "resource uri not a URI",
    body: req("resources/read", { uri: "not a uri" }),
    expect: { status: 200, code: -32002 },
  },
  {
    name: "resource with a 1 MB uri",
    body: req("resources/read", { uri: `gifts://${megabyte}` }),
    expect: { status: 200, code: -32002 },
  },
  { name: "resources/read without uri", body: req("resources/read", {}), expect: PARAMS(/`params.uri` is required/) },
  // — deep nesting
  {
    name: "params nested 5,000 deep",
    body: () => `{"jsonrpc":"2.0","id":5,"method":"ping","params":${nested(5000)}}`,
    expect: INVALID(/nest/),
  },
  {
    name: "tool arguments nested 5,000 deep",
    body: () =>
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"suggest_gifts","arguments":${nested(5000)}}}`,
    expect: INVALID(/nest/),
  },
  {
    name: "params nested 90 deep (under the limit)",
    body: () => `{"jsonrpc":"2.0","id":5,"method":"ping","params":${nested(90)}}`,
    expect: { status: 200, ok: true },
  },
  {
    name: "client response nested 5,000 deep",
    body: () => `{"jsonrpc":"2.0","id":5,"result":${nested(5000)}}`,
    expect: INVALID(/nest/),
  },
  {
    name: "client error data nested 5,000 deep",
    body: () => `{"jsonrpc":"2.0","id":5,"error":{"code":1,"message":"m","data":${nested(5000)}}}`,
    expect: INVALID(/nest/),
  },
  { name: "arrays nested 100,000 deep", body: () => nestedArray(100_000), expect: { status: 400, code: -32600 } },
  // — sessions
  {
    name: "unknown session id",
    body: req("tools/list"),
    headers: { "mcp-session-id": "no-such-session" },
    expect: { status: 404, code: -32001 },
  },
  { name: "closed session id", body: req("tools/list"), closed: true, expect: { status: 404, code: -32001 } },
  {
    name: "unknown tool in a session",
    body: call("gift_wrap", {}, 31),
    inSession: true,
    expect: PARAMS(/Unknown tool/),
  },
  {
    name: "old shape in a session",
    body: req("tools/call", { tool: "x" }, 32),
    inSession: true,
    expect: PARAMS(/`params.name` is required/),
  },
  {
    name: "bad arguments in a session",
    body: call("suggest_gifts", { occasion: 1 }, 33),
    inSession: true,
    expect: TOOL_ERROR(/`occasion` must be a string/),
  },
  {
    name: "id 1e308 in a session",
    body: '{"jsonrpc":"2.0","id":1e308,"method":"ping"}',
    inSession: true,
    expect: INVALID(/"id"/),
  },
];

/** What a stack trace or a server path looks like in a message. */
const LEAK = /\n\s+at |\bat [\w.<>]+ \(|node:internal|\/work\/|\bserver\/|\.ts:\d+|RangeError|TypeError/;

type Answer = { status: number; raw: string; messages: Json[] };

async function send(c: Case): Promise<Answer> {
  const body = typeof c.body === "function" ? c.body() : c.body;
  const headers = { ...(c.inSession ? session.headers : {}), ...(c.closed ? closedSession : {}), ...c.headers };
  const method = c.method ?? "POST";
  const response =
    method === "POST"
      ? typeof body === "string"
        ? await postRaw(server.mcpUrl, body, headers)
        : await fetch(server.mcpUrl, {
            method,
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
            body,
          })
      : await fetch(server.mcpUrl, { method, headers, body: method === "GET" || body === "" ? undefined : body });
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    const sse = readSse(response);
    const messages: Json[] = [];
    const datas: string[] = [];
    while (!messages.some((m) => "id" in m)) {
      const event = await sse.next();
      if (!event.data) continue;
      datas.push(event.data);
      messages.push(JSON.parse(event.data));
    }
    await sse.close();
    return { status: response.status, raw: datas.join("\n"), messages: messages.filter((m) => "id" in m) };
  }
  const raw = await response.text();
  return { status: response.status, raw, messages: raw === "" ? [] : [JSON.parse(raw)] };
}

function textOf(result: Json): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.map((c) => c.text ?? "").join("\n");
}

describe("bad input over HTTP", () => {
  it("has a large table", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const c of CASES) it(c.name, () => check(c));

  async function check(c: Case): Promise<void> {
    const answer = await send(c);
    const shown = answer.raw.length > 500 ? `${answer.raw.slice(0, 500)}…` : answer.raw;
    expect(answer.status, shown).toBe(c.expect.status);
    expect(answer.raw, "no stack trace or path").not.toMatch(LEAK);
    if (c.expect.status === 202) {
      expect(answer.raw).toBe("");
      return;
    }
    expect(answer.messages.length, shown).toBe(1);
    const [message] = answer.messages;
    expect(message.jsonrpc).toBe("2.0");
    if ("code" in c.expect) {
      const error = message.error as { code: number; message: string; data?: unknown };
      expect(error, shown).toBeDefined();
      expect(error.code, shown).toBe(c.expect.code);
      expect(typeof error.message).toBe("string");
      expect(error.message.length, "the message is bounded").toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
      expect(JSON.stringify(error.data ?? null).length, "the data is bounded").toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
      if (c.expect.message) expect(error.message).toMatch(c.expect.message);
      return;
    }
    const result = message.result as Json;
    expect(result, shown).toBeDefined();
    if ("id" in c.expect) expect(message.id).toBe(c.expect.id);
    if ("toolError" in c.expect) {
      expect(result.isError, shown).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(c.expect.toolError);
      // a sentence: words, ending in a full stop
      expect(text).toMatch(/^[^\n]*\w[^\n]*[.!?]/);
      expect(text.length, "the text is bounded").toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    } else {
      expect(result.isError ?? false, shown).toBe(false);
    }
  }

  it("still answers tools/list after all of it, stateless and in the session", async () => {
    const stateless = await postRaw(server.mcpUrl, req("tools/list", undefined, 500));
    expect(stateless.status).toBe(200);
    const json = (await stateless.json()) as { result: { tools: unknown[] } };
    const count = Object.keys(TOOL).length + Object.keys(FILE_TOOL).length;
    expect(json.result.tools.length).toBe(count);
    const inSession = (await session.request("tools/list")) as { result: { tools: unknown[] } };
    expect(inSession.result.tools.length).toBe(count);
  });
});
