/**
 * The 2026-07-28 edge as the spec's text asks it, in raw HTTP against a real server process whose
 * JSON log is read back: discovery and the -32022 refusal name both revisions served here, refusals carry the spec's
 * status, a task's `Mcp-Name` may come base64-encoded, an initialize framed as 2026-07-28 opens no
 * session, and every refusal is one warning line with its code, never an error.
 */
import { TOOL } from "../../../shared/tools.js";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import { MODERN, postModern, replyOf, requestModern, withTasks } from "../../../test-kit/modern-client.js";
import { startLogged, type LoggedProcess } from "../../../test-kit/observability/logged-process.js";

let server: LoggedProcess;
let mcpUrl: URL;

beforeAll(async () => {
  server = await startLogged("main", { STORE: "memory" });
  mcpUrl = server.mcpUrl!;
}, 180_000);
afterAll(() => server.kill());

const base64 = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;
const refusalLines = () =>
  server.records().filter((r) => typeof r.msg === "string" && r.msg.startsWith("Refused a 2026-07-28"));

it("names both revisions it serves in server/discover, the 2026-07-28 one first", async () => {
  const reply = await requestModern(mcpUrl, "server/discover");
  expect(reply.status).toBe(200);
  expect(reply.result?.supportedVersions).toEqual([MODERN, "2025-11-25"]);
});

it("names both revisions in the -32022 refusal of a revision it does not serve", async () => {
  const reply = await requestModern(
    mcpUrl,
    "tools/list",
    {},
    {
      headers: { "mcp-protocol-version": "2099-01-01" },
      meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
    },
  );
  expect(reply.status).toBe(400);
  expect(reply.error).toMatchObject({
    code: -32022,
    data: { supported: [MODERN, "2025-11-25"], requested: "2099-01-01" },
  });
});

it("refuses a listen request with 400: -32021 without the Tasks extension, -32602 without a filter", async () => {
  const undeclared = await postModern(mcpUrl, "subscriptions/listen", { notifications: { taskIds: ["x"] } });
  expect(undeclared.status).toBe(400);
  expect((await replyOf(undeclared)).error?.code).toBe(-32021);
  const noFilter = await postModern(mcpUrl, "subscriptions/listen", {});
  expect(noFilter.status).toBe(400);
  expect((await replyOf(noFilter)).error?.code).toBe(-32602);
});

it("decodes a base64 Mcp-Name before comparing it with the task id, and refuses a broken one", async () => {
  const started = await requestModern(
    mcpUrl,
    "tools/call",
    { name: TOOL.startBulk, arguments: { csv: employeeCsv(20, { seed: 3 }), occasion: "thanks", budgetPerPerson: 40 } },
    { capabilities: withTasks },
  );
  const taskId = started.result?.taskId as string;
  expect(taskId).toEqual(expect.any(String));
  const encoded = await requestModern(
    mcpUrl,
    "tasks/get",
    { taskId },
    { capabilities: withTasks, headers: { "mcp-name": base64(taskId) } },
  );
  expect(encoded.status).toBe(200);
  expect(encoded.result).toMatchObject({ taskId });
  const broken = await postModern(
    mcpUrl,
    "tasks/get",
    { taskId },
    { capabilities: withTasks, headers: { "mcp-name": "=?base64?not base64?=" } },
  );
  expect(broken.status).toBe(400);
  expect((await replyOf(broken)).error?.code).toBe(-32020);
});

it("opens no 2025-11-25 session for an initialize framed as 2026-07-28: that era has no initialize", async () => {
  const response = await postModern(mcpUrl, "initialize", {
    protocolVersion: MODERN,
    capabilities: {},
    clientInfo: { name: "edge-test", version: "1.0.0" },
  });
  expect(response.status).toBe(404);
  expect(response.headers.get("mcp-session-id")).toBeNull();
  expect((await replyOf(response)).error?.code).toBe(-32601);
});

it("logs each refusal once, at warn with its status and code, and none as an unexpected error", async () => {
  const mismatch = await postModern(mcpUrl, "tools/list", {}, { headers: { "mcp-method": "prompts/list" } });
  expect(mismatch.status).toBe(400);
  const unsupported = await postModern(
    mcpUrl,
    "tools/list",
    {},
    {
      headers: { "mcp-protocol-version": "2099-01-01" },
      meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
    },
  );
  expect(unsupported.status).toBe(400);
  await expect.poll(() => refusalLines().length).toBe(7);
  const lines = refusalLines();
  expect(lines.every((r) => r.level === "warn")).toBe(true);
  expect(lines.map((r) => r.code)).toEqual([-32022, -32021, -32602, -32020, -32601, -32020, -32022]);
  expect(lines.map((r) => r.status)).toEqual([400, 400, 400, 400, 404, 400, 400]);
  expect(server.records().filter((r) => r.level === "error" || r.msg === "unexpected error")).toEqual([]);
});
