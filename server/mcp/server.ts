/**
 * The MCP server for both eras: `createMcpParts` builds what no connection changes once;
 * `buildServer` puts it on a fresh SDK `Server` per session or request. A 2026-07-28 client gets
 * tasks, per-request log lines and cache hints; subscriptions and log levels are 2025-11-25's.
 */
import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { CATALOG, cheapestPrices, type CatalogItem } from "../gifts/catalog.js";
import { createFileLinks } from "../files/export/file-links.js";
import { TOOL } from "../../shared/tools.js";
import { createTasks, declaresTasks, TASKS_EXTENSION } from "./modern/tasks.js";
import { forwardJobEvents, type SessionState } from "./notifications.js";
import { PROMPTS } from "./prompts.js";
import { createResources, resultJobOf } from "./resources.js";
import {
  callerOf,
  createToolRegistry,
  toolContext,
  type ToolDeps,
  type ToolSecurity,
  type ToolSpec,
} from "./tool-registry.js";
import { openStaffFiles } from "../files/files-env.js";
import { beginFileUploadTool } from "./tools/begin-file-upload.js";
import { cancelJobTool } from "./tools/cancel-job.js";
import { claimFollowUpTool } from "./tools/claim-follow-up.js";
import { deleteJobTool } from "./tools/delete-job.js";
import { dropFileUploadTool } from "./tools/drop-file-upload.js";
import { exportJobResultTool } from "./tools/export-job-result.js";
import { getJobEventsTool } from "./tools/get-job-events.js";
import { getJobResultTool } from "./tools/get-job-result.js";
import { getJobTableTool } from "./tools/get-job-table.js";
import { listJobsTool } from "./tools/list-jobs.js";
import { previewStaffFileTool } from "./tools/preview-staff-file.js";
import { putFileChunkTool } from "./tools/put-file-chunk.js";
import { showJobTool } from "./tools/show-job.js";
import { startBulkAnalysisTool } from "./tools/start-bulk-analysis.js";
import { suggestGiftsTool } from "./tools/suggest-gifts.js";
import { waitForJobTool } from "./tools/wait-for-job.js";

export const SERVER_INFO = { name: "giftgenius", title: "GiftGenius", version: "0.1.0" };

const INSTRUCTIONS =
  "GiftGenius picks gifts from its catalog, within a budget in the user's currency (KRW, USD, EUR, JPY or GBP; " +
  "their locale's when not given). For one person, call suggest_gifts. " +
  "For a team or a CSV of employees, call start_bulk_gift_analysis: it answers at once with a jobId while the " +
  "widget shows live progress; then call wait_for_job, and get_job_result to read the picks. " +
  "For an earlier analysis, list_jobs finds it and show_job shows its card again.";

/** By default: no run options, uploads in memory (`files`), file links signed with their own key. */
export type McpDeps = Pick<ToolDeps, "jobs" | "matchGifts" | "widget"> &
  Partial<Pick<ToolDeps, "files" | "fileLinks" | "runOptionsOf">> & {
    catalog?: readonly CatalogItem[];
    /** Hears about handlers that threw. */
    onError?: (error: unknown) => void;
    /** With sign-in: the scopes each tool needs and how to ask for them. */
    security?: ToolSecurity;
  };

/** Every tool, each with its schemas, _meta and handler: both protocol eras serve this one list. */
export function createToolSpecs({
  jobs,
  matchGifts,
  widget,
  catalog = CATALOG,
  runOptionsOf = () => undefined,
  files = openStaffFiles(jobs),
  fileLinks = createFileLinks(),
}: Omit<McpDeps, "onError" | "security">): ToolSpec[] {
  const deps = { jobs, matchGifts, widget, files, fileLinks, runOptionsOf, cheapestPrice: cheapestPrices(catalog) };
  return [
    suggestGiftsTool,
    startBulkAnalysisTool,
    getJobEventsTool,
    getJobResultTool,
    getJobTableTool,
    cancelJobTool,
    waitForJobTool,
    deleteJobTool,
    listJobsTool,
    showJobTool,
    claimFollowUpTool,
    beginFileUploadTool,
    putFileChunkTool,
    dropFileUploadTool,
    previewStaffFileTool,
    exportJobResultTool,
  ].map((tool) => tool(deps));
}

/** The parts built once per app, the validator too (Ajv: ~0.2 ms a server), so a server costs µs. */
export type McpParts = ReturnType<typeof createMcpParts>;

export function createMcpParts(deps: McpDeps) {
  const { jobs, widget, catalog = CATALOG, onError } = deps;
  return {
    jobs,
    tools: createToolRegistry(createToolSpecs(deps), onError, deps.security),
    resources: createResources({ jobs, widget, catalog }),
    validator: new AjvJsonSchemaValidator(),
    tasks: createTasks(jobs),
  };
}

/** How long the lists (tools, resources, prompts, discovery) may be cached, by anyone (2026-07-28). */
const publicCache = { ttlMs: 5 * 60_000, cacheScope: "public" as const };
const LISTS = ["server/discover", "tools/list", "resources/list", "resources/templates/list", "prompts/list"] as const;

/** The catalog, the widget and the lists are the same for everyone; a job's result is its owner's, for a moment. */
function cacheHintFor(uri: string, widgetUri: string) {
  if (uri === widgetUri) return { ttlMs: 24 * 60 * 60_000, cacheScope: "public" as const };
  if (uri.startsWith("gifts://jobs/")) return { ttlMs: 0, cacheScope: "private" as const };
  return publicCache;
}

/**
 * The SDK's server, but a `tools/call` answer goes out unchecked and uncopied (zod's share of a
 * suggest_gifts profile: 10 % to 5 %); tools.test.ts checks every tool's results instead.
 */
class GiftServer extends Server {
  protected override _wrapHandler(method: string, handler: Parameters<Server["_wrapHandler"]>[1]) {
    return method === "tools/call" ? handler : super._wrapHandler(method, handler);
  }
}

export type BuiltServer = ReturnType<typeof buildServer>;

/** A fresh SDK server over `parts`; `stateful` for a 2025-11-25 session (else one request's). */
export function buildServer(parts: McpParts, { stateful }: { stateful: boolean }) {
  const server = new GiftServer(SERVER_INFO, {
    capabilities: {
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      logging: {},
      extensions: { [TASKS_EXTENSION]: {} },
    },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: parts.validator,
    cacheHints: Object.fromEntries(LISTS.map((method) => [method, publicCache])),
  });
  const modern = () => (server.getNegotiatedProtocolVersion() ?? "") >= "2026-07-28";
  const state: SessionState = { subscriptions: new Map() };
  const widgetUri = parts.resources.list.resources.find((r) => r.uri.startsWith("ui://"))?.uri ?? "";
  const needsSession = (what: string) => {
    if (!stateful)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `${what} needs a session: send initialize first and keep its Mcp-Session-Id.`,
      );
  };

  // the tools are described with the registry's own types: the same wire shapes, typed a little apart
  server.setRequestHandler("tools/list", () => parts.tools.list as never);
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const context = toolContext(ctx, modern());
    const result = await parts.tools.call(request.params.name, request.params.arguments, context);
    if (request.params.name === TOOL.startBulk && modern() && declaresTasks(ctx.mcpReq.envelope))
      return (await parts.tasks.created(result, context.caller)) as never;
    return result;
  });
  server.setRequestHandler("resources/list", () => parts.resources.list);
  server.setRequestHandler("resources/templates/list", () => parts.resources.templates);
  server.setRequestHandler("resources/read", async (request, ctx) => {
    const { uri } = request.params;
    const read = await parts.resources.read(uri, callerOf(ctx));
    return modern() ? { ...read, ...cacheHintFor(uri, widgetUri) } : read;
  });
  server.setRequestHandler("prompts/list", () => PROMPTS.list);
  server.setRequestHandler("prompts/get", (request) => PROMPTS.get(request.params.name, request.params.arguments));
  // what a 2025-11-25 session chooses and keeps: its subscriptions and its log level
  server.setRequestHandler("resources/subscribe", async (request, ctx) => {
    needsSession("resources/subscribe");
    const { uri } = request.params;
    parts.resources.assertKnown(uri);
    const caller = callerOf(ctx);
    const jobId = resultJobOf(uri);
    if (jobId !== undefined) {
      // someone else's job reads as a missing one; one started on another instance is followed from here
      const access = await parts.jobs.follow(jobId, caller);
      if (!access.ok) throw parts.resources.unreadable(uri, access.error);
    }
    state.subscriptions.set(uri, caller.subject);
    if (jobId === undefined) return {};
    // a job that ended before the subscription took hold told nobody: the update goes with the answer
    const now = await parts.jobs.waitFor({ jobId, timeoutMs: 0 }, caller, () => {});
    if (now.ok && now.value.done)
      await ctx.mcpReq.notify({ method: "notifications/resources/updated", params: { uri } });
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", (request) => {
    state.subscriptions.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler("logging/setLevel", (request) => {
    needsSession("logging/setLevel");
    state.logLevel = request.params.level;
    return {};
  });
  parts.tasks.register(server, modern);

  return { server, state, dispose: stateful ? forwardJobEvents(server, state, parts.jobs) : () => {} };
}
