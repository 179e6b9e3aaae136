/**
 * The hot path of both eras: a plainly valid `tools/call` that wants plain JSON is answered here
 * from the registry, as the SDK would answer it; any other goes on to the SDK, whose transport and
 * protocol layer cost as much as the call (suggest_gifts: twice the requests per second without).
 */
import {
  isJsonContentType,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
} from "@modelcontextprotocol/server";
import { TOOL } from "../../../shared/tools.js";
import { MODERN_VERSION, type Route } from "../modern/modern-http.js";
import { declaresTasks } from "../modern/tasks.js";
import { SERVER_INFO } from "../server.js";
import { requestContext, type ToolRegistry } from "../tool-registry.js";
import { checkToolsCall } from "./request-guard.js";

type Call = { id?: string | number; method?: string; params?: Record<string, unknown> & { _meta?: Meta } };
type Meta = Record<string, unknown> & { progressToken?: unknown };

/** Whether the SDK would answer this call as plain JSON: valid, no progress, no task, its era's headers. */
function isPlain(req: Request, { id, method, params = {} }: Call, route: Route | undefined, tools: ToolRegistry) {
  const header = (name: string) => req.headers.get(name);
  const name = params.name as string;
  if (method !== "tools/call" || id === undefined || checkToolsCall({ params }) !== undefined) return false;
  if (params._meta?.progressToken !== undefined || params.task !== undefined || !tools.has(name)) return false;
  if (!isJsonContentType(header("content-type"))) return false;
  if (!route) {
    const [accept, version] = [header("accept") ?? "", header("mcp-protocol-version")];
    const accepts = accept.includes("application/json") && accept.includes("text/event-stream");
    return accepts && (version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version));
  }
  return (
    route.kind === "modern" &&
    route.classification.revision === MODERN_VERSION &&
    header("mcp-protocol-version") === MODERN_VERSION &&
    header("mcp-method") === method &&
    header("mcp-name") === name &&
    // its log lines go out on the request's own stream, which only the SDK's transport opens
    name !== TOOL.waitForJob &&
    !(name === TOOL.startBulk && declaresTasks(params._meta))
  );
}

/** The answer to a plain call, or undefined for the SDK to serve; `route` as `isPlain` takes it. */
export async function directCall(
  tools: ToolRegistry,
  req: Request,
  body: unknown,
  route: Route | undefined,
  auth?: AuthInfo,
): Promise<Response | undefined> {
  const call = body as Call;
  if (Array.isArray(body) || !isPlain(req, call, route, tools)) return undefined;
  const { name, arguments: args, _meta: meta = {} } = call.params!;
  const result = await tools.call(name as string, args, requestContext(req, meta, auth));
  const answer = route
    ? { ...result, _meta: { ...result._meta, [SERVER_INFO_META_KEY]: SERVER_INFO }, resultType: "complete" }
    : result;
  const headers = { "content-type": "application/json" };
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: answer }), { headers });
}
