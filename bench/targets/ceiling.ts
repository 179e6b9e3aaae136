/**
 * Benchmark target, the ceiling: a bare Hono route on @hono/node-server that reads the JSON-RPC
 * request and answers with the result our own tools gave for it, computed once at start-up. No
 * MCP layer, no job service per request: what HTTP, JSON and Hono alone cost.
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { TOOL } from "../../shared/tools.js";
import { CATALOG } from "../../server/gifts/catalog.js";
import { matchGifts } from "../../server/gifts/matcher.js";
import { createJobService } from "../../server/jobs/job-service.js";
import { createMemoryStore } from "../../server/jobs/stores/memory.js";
import { createMcpParts } from "../../server/mcp/server.js";
import { loadWidget } from "../../server/widget.js";
import { BENCH_JOB, SUGGEST_ARGS } from "../requests.js";
import { endWithParent } from "../children.js";

const jobs = createJobService({ store: createMemoryStore(), match: matchGifts });
const parts = createMcpParts({ jobs, matchGifts, widget: loadWidget("dist/widget/index.html"), catalog: CATALOG });
const caller = { subject: "anonymous" };
const ctx = { caller, signal: new AbortController().signal, meta: {}, progress: () => {} };

const started = await jobs.start(BENCH_JOB, caller);
if (!started.ok) throw new Error(started.error.message);
const { jobId } = started.value;
await jobs.waitFor({ jobId, timeoutMs: 30_000 }, caller, () => {});
const results = new Map<string, string>([
  [TOOL.suggestGifts, JSON.stringify(await parts.tools.call(TOOL.suggestGifts, SUGGEST_ARGS, ctx))],
  [TOOL.getJobEvents, JSON.stringify(await parts.tools.call(TOOL.getJobEvents, { jobId }, ctx))],
]);

const field = (o: unknown, key: string): unknown =>
  typeof o === "object" && o !== null ? Reflect.get(o, key) : undefined;

const app = new Hono();
app.post("/mcp", async (c) => {
  const message: unknown = JSON.parse(await c.req.text());
  const id = field(message, "id");
  const name = field(field(message, "params"), "name");
  const result = typeof name === "string" ? results.get(name) : undefined;
  if (result === undefined)
    return c.json({ jsonrpc: "2.0", id: null, error: { code: -32602, message: "unknown tool" } }, 400);
  return c.body(`{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"result":${result}}`, 200, {
    "content-type": "application/json",
  });
});

const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(JSON.stringify({ port: info.port, jobId }));
});
endWithParent();
process.on("SIGTERM", () => {
  server.close();
  if ("closeAllConnections" in server) server.closeAllConnections();
  void jobs.close().finally(() => process.exit(0));
});
