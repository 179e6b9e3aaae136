/**
 * The 2026-07-28 leg of `/mcp`: requests that carry the per-request `_meta` envelope, served
 * statelessly by the v2 SDK's `createMcpHandler` (version, envelope and standard headers checked
 * there; `server/discover`; results stamped with the server's identity and cache fields). Two
 * things are ours: `subscriptions/listen` (`listen.ts`) and the `Mcp-Name` of task requests, which
 * the SDK does not know.
 *
 * A request that asks for progress is answered as SSE from the start, so that a keep-alive comment
 * goes out every `keepAliveMs` while it waits, and hosts and proxies that cut silent calls keep it.
 */
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { classifyInboundRequest, createMcpHandler } from "@modelcontextprotocol/server";
import { subjectOf } from "../../auth/subject.js";
import { jsonRpcError } from "../http/http-body.js";
import type { McpParts } from "../server.js";
import { createListen } from "./listen.js";
import { buildModernServer } from "./modern-server.js";
import { createTasks } from "./tasks.js";

/** The Streamable HTTP code for a header that disagrees with the body. */
const HEADER_MISMATCH = -32020;
const TASK_METHODS = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

type Message = { id?: string | number; method?: string; params?: { taskId?: unknown; _meta?: unknown } };

export type ModernHttp = {
  handle(req: Request, body: unknown, wantsProgress: boolean, auth?: AuthInfo): Promise<Response>;
  readonly listenCount: number;
  close(): Promise<void>;
};

export function createModernHttp({
  shared,
  keepAliveMs = 10_000,
  onError = () => {},
}: {
  shared: McpParts;
  keepAliveMs?: number;
  onError?: (error: Error) => void;
}): ModernHttp {
  const tasks = createTasks(shared.jobs);
  const listen = createListen({ jobs: shared.jobs, keepAliveMs, onError });
  const factory = () => buildModernServer(shared, tasks);
  const options = { legacy: "reject", keepAliveMs, onerror: onError } as const;
  const plain = createMcpHandler(factory, options);
  const streamed = createMcpHandler(factory, { ...options, responseMode: "sse" });

  return {
    async handle(req, body, wantsProgress, auth) {
      const message = body as Message;
      const { id = null, method } = message;
      if (method === "subscriptions/listen" || (method !== undefined && TASK_METHODS.has(method))) {
        // the SDK's checks of version, envelope and standard headers, before ours
        const route = classifyInboundRequest({
          httpMethod: req.method,
          protocolVersionHeader: req.headers.get("mcp-protocol-version") ?? undefined,
          mcpMethodHeader: req.headers.get("mcp-method") ?? undefined,
          mcpNameHeader: req.headers.get("mcp-name") ?? undefined,
          body,
        });
        if (route.kind === "reject") return jsonRpcError(route.httpStatus, route.code, route.message, route.data, id);
        if (method === "subscriptions/listen" && id !== null)
          return listen.serve({ id, params: message.params }, { subject: subjectOf(auth) }, req.signal);
        const taskId = message.params?.taskId;
        if (typeof taskId === "string" && req.headers.get("mcp-name") !== taskId)
          return jsonRpcError(
            400,
            HEADER_MISMATCH,
            `The Mcp-Name header must be the task id "${taskId}".`,
            undefined,
            id,
          );
      }
      return (wantsProgress ? streamed : plain).fetch(req, { parsedBody: body, authInfo: auth });
    },
    get listenCount() {
      return listen.openCount;
    },
    async close() {
      listen.close();
      await Promise.all([plain.close(), streamed.close()]);
    },
  };
}
