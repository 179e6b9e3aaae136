/**
 * The MCP server for 2026-07-28 requests, on the v2 SDK's low-level `Server`: one per request (the
 * SDK's stateless serving), wired to the same tools, resources and prompts as the 2025-11-25
 * sessions (`../server.ts`). What differs by era is only here: progress rides the request's own
 * stream, an unknown resource is -32602, results carry cache hints, and a client that declares the
 * Tasks extension gets the bulk analysis as a task (`tasks.ts`).
 */
import { Server } from "@modelcontextprotocol/server";
import { TOOL } from "../../../shared/tools.js";
import type { Caller } from "../../jobs/caller.js";
import { JsonRpcError, RESOURCE_NOT_FOUND } from "../rpc-error.js";
import { INSTRUCTIONS, SERVER_INFO, type McpParts } from "../server.js";
import { callerOf, toolContext } from "./context.js";
import { declaresTasks, TASKS_EXTENSION, type Tasks } from "./tasks.js";

/** MCP's codes: an unknown resource was -32002 before 2026-07-28, and is invalid params since. */
const INVALID_PARAMS = -32602;

/** How long the catalog's lists (tools, resources, prompts, discovery) may be cached, by anyone. */
const CATALOG_TTL_MS = 5 * 60_000;

/** Reads a resource; a URI that names nothing readable is -32602 in this era. */
async function readResource(shared: McpParts, uri: string, caller: Caller) {
  try {
    return await shared.resources.read(uri, caller);
  } catch (error) {
    if (error instanceof JsonRpcError && error.code === RESOURCE_NOT_FOUND)
      throw new JsonRpcError(INVALID_PARAMS, error.message, error.data);
    throw error;
  }
}

/** The catalog, the widget and the lists are the same for everyone; a job's result is its owner's, for a moment. */
function cacheHintFor(uri: string, widgetUri: string) {
  if (uri === widgetUri) return { ttlMs: 24 * 60 * 60_000, cacheScope: "public" as const };
  if (uri.startsWith("gifts://jobs/")) return { ttlMs: 0, cacheScope: "private" as const };
  return { ttlMs: CATALOG_TTL_MS, cacheScope: "public" as const };
}

export function buildModernServer(shared: McpParts, tasks: Tasks): Server {
  const publicCache = { ttlMs: CATALOG_TTL_MS, cacheScope: "public" as const };
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      logging: {},
      extensions: { [TASKS_EXTENSION]: {} },
    },
    instructions: INSTRUCTIONS,
    cacheHints: {
      "server/discover": publicCache,
      "tools/list": publicCache,
      "resources/list": publicCache,
      "resources/templates/list": publicCache,
      "prompts/list": publicCache,
    },
  });
  const widgetUri = shared.resources.list.resources.find((r) => r.uri.startsWith("ui://"))?.uri ?? "";

  // the tools are described with the 2025 SDK's types: the same wire shapes, typed a little apart
  server.setRequestHandler("tools/list", () => shared.tools.list as never);
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const context = toolContext(ctx);
    const result = await shared.tools.call(request.params.name, request.params.arguments, context);
    if (request.params.name === TOOL.startBulk && declaresTasks(ctx.mcpReq.envelope))
      return (await tasks.created(result, context.caller)) as never;
    return result;
  });
  server.setRequestHandler("resources/list", () => shared.resources.list);
  server.setRequestHandler("resources/templates/list", () => shared.resources.templates);
  server.setRequestHandler("resources/read", async (request, ctx) => {
    const { uri } = request.params;
    return { ...(await readResource(shared, uri, callerOf(ctx))), ...cacheHintFor(uri, widgetUri) };
  });
  server.setRequestHandler("prompts/list", () => shared.prompts.list);
  server.setRequestHandler("prompts/get", (request) =>
    shared.prompts.get(request.params.name, request.params.arguments),
  );
  tasks.register(server);
  return server;
}
