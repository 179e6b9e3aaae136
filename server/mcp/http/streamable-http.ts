/**
 * MCP Streamable HTTP at one endpoint, both eras (the SDK leaves this routing to the application):
 * after `http-body.ts`, a request goes to its session, the hot path (`direct-call.ts`), the
 * 2026-07-28 leg (`../modern/`), a new session (`initialize`) or the stateless path.
 */
import { ProtocolErrorCode, type AuthInfo } from "@modelcontextprotocol/server";
import { jsonRpcError } from "../../json-rpc-error.js";
import { readJsonRpcBody } from "./http-body.js";
import type { BodyReader } from "../../http/node-body.js";
import { buildServer, type McpParts } from "../server.js";
import { SESSION_DEFAULTS } from "../../limits.js";
import { createSessions } from "./sessions.js";
import { createStateless } from "./stateless.js";
import { createModernHttp, modernRoute } from "../modern/modern-http.js";
import { directCall } from "./direct-call.js";
import { traceJsonRpcBody } from "../../observability/tracing.js";
import type { Notice } from "../../files/file-words.js";

export type McpHttpOptions = {
  parts: McpParts;
  /** Largest accepted POST body, in bytes. */
  maxBodyBytes: number;
  sessionIdleMs?: number;
  maxSessions?: number;
  sessionMinIdleMs?: number;
  maxSessionsPerSubject?: number;
  onError?: (error: Error) => void;
  /** Hears each refused 2026-07-28 request once, with its code (a warning, not an error). */
  onNotice?: Notice;
  /** The tag that starts this instance's session ids (sessions.ts). */
  instanceId?: string;
  /** Keep-alive comments on open 2026-07-28 streams this often. */
  keepAliveMs?: number;
};

export type McpHttpHandler = ReturnType<typeof createMcpHttpHandler>;

const { InvalidRequest } = ProtocolErrorCode;

export function createMcpHttpHandler({ parts, maxBodyBytes, onError = () => {}, ...options }: McpHttpOptions) {
  const sessions = createSessions({
    build: () => buildServer(parts, { stateful: true }),
    instanceId: options.instanceId,
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    maxSessions: options.maxSessions ?? SESSION_DEFAULTS.maxSessions,
    minIdleMs: options.sessionMinIdleMs ?? SESSION_DEFAULTS.minIdleMs,
    maxSessionsPerSubject: options.maxSessionsPerSubject ?? Infinity,
    onError,
  });
  // a fresh server for each exchange: an SDK server keeps the revision it served
  const build = () => buildServer(parts, { stateful: false }).server;
  const stateless = createStateless({ build, onError });
  const { keepAliveMs, onNotice } = options;
  const modern = createModernHttp({ jobs: parts.jobs, build, keepAliveMs, onError, onNotice });

  return {
    /** `readBody` reads the body faster than `req`, where it can; `auth`, the verified token if any. */
    async handle(req: Request, readBody?: BodyReader, auth?: AuthInfo): Promise<Response> {
      const sessionId = req.headers.get("mcp-session-id");
      if (req.method === "POST") {
        const read = await readJsonRpcBody(req, maxBodyBytes, readBody);
        if (read instanceof Response) return read;
        traceJsonRpcBody(read.body);
        if (sessionId) return sessions.handle(sessionId, req, read.body, auth);
        // the 2026-07-28 envelope, an initialize's too: that era has none, and it opens no session
        const route = modernRoute(req, read.body);
        const direct = await directCall(parts.tools, req, read.body, route, auth);
        if (direct) return direct;
        if (route) return modern.handle(req, read.body, route, read.wantsProgress, auth);
        if (read.initialize) return sessions.open(req, read.body, auth);
        return stateless(req, read.body, read.wantsProgress, auth);
      }
      if ((req.method === "GET" || req.method === "DELETE") && sessionId)
        return sessions.handle(sessionId, req, undefined, auth);
      // stateless clients have no stream to open or session to end
      if (req.method === "DELETE")
        return jsonRpcError(400, InvalidRequest, "DELETE /mcp ends a session: send its Mcp-Session-Id.");
      const [text, allow] =
        req.method === "GET"
          ? ["GET /mcp opens a session's notification stream: send the Mcp-Session-Id from initialize.", "POST"]
          : [`Method ${req.method} is not allowed on /mcp.`, "GET, POST, DELETE"];
      const refused = jsonRpcError(405, InvalidRequest, text);
      refused.headers.set("allow", allow);
      return refused;
    },
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await Promise.all([sessions.close(), modern.close()]);
    },
  };
}
