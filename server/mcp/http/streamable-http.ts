/**
 * MCP Streamable HTTP at one endpoint, both protocol eras: routes each request to its session, to a
 * new session (`initialize`), to the 2026-07-28 leg (`../modern/`) when it carries the per-request
 * envelope, or to the 2025-11-25 stateless path, after the body checks of `http-body.ts`. The SDK's
 * `WebStandardStreamableHTTPServerTransport` does the protocol work behind each route.
 *
 * Why ours: the SDK leaves routing 2025-11-25 sessions beside `createMcpHandler` to the application (`isLegacyRequest`).
 */
import { ProtocolErrorCode, type AuthInfo } from "@modelcontextprotocol/server";
import { jsonRpcError } from "../../json-rpc-error.js";
import { readJsonRpcBody, type BodyReader } from "./http-body.js";
import { buildServer, type McpParts } from "../server.js";
import { SESSION_DEFAULTS } from "../../limits.js";
import { createSessions } from "./sessions.js";
import { createStateless } from "./stateless.js";
import { createModernHttp, isModernRequest } from "../modern/modern-http.js";
import { traceJsonRpcBody } from "../../observability/tracing.js";
import type { Notice } from "../../files/file-words.js";

export type McpHttpOptions = {
  parts: McpParts;
  /** Largest accepted POST body, in bytes. */
  maxBodyBytes: number;
  sessionIdleMs?: number;
  maxSessions?: number;
  /** Sessions used more recently than this are never closed to make room for new ones. */
  sessionMinIdleMs?: number;
  maxSessionsPerSubject?: number;
  statelessPoolSize?: number;
  onError?: (error: Error) => void;
  /** Hears each refused 2026-07-28 request once, with its code (a warning, not an error). */
  onNotice?: Notice;
  /** The tag that starts this instance's session ids, which nginx routes by (sessions.ts); random by default. */
  instanceId?: string;
  /** Keep-alive comments on open 2026-07-28 streams this often (see `../modern/modern-http.ts`). */
  keepAliveMs?: number;
};

export type McpHttpHandler = ReturnType<typeof createMcpHttpHandler>;

export function createMcpHttpHandler({
  parts,
  maxBodyBytes,
  sessionIdleMs = 30 * 60_000,
  maxSessions = SESSION_DEFAULTS.maxSessions,
  sessionMinIdleMs = SESSION_DEFAULTS.minIdleMs,
  maxSessionsPerSubject = Infinity,
  statelessPoolSize = 64,
  onError = () => {},
  onNotice,
  instanceId,
  keepAliveMs,
}: McpHttpOptions) {
  const sessions = createSessions({
    build: () => buildServer(parts, { stateful: true }),
    instanceId,
    idleMs: sessionIdleMs,
    maxSessions,
    minIdleMs: sessionMinIdleMs,
    maxSessionsPerSubject,
    onError,
  });
  const stateless = createStateless({
    build: () => buildServer(parts, { stateful: false }),
    poolSize: statelessPoolSize,
    onError,
  });

  const modern = createModernHttp({ shared: parts, keepAliveMs, onError, onNotice });

  return {
    /**
     * `readBody` reads the POST body faster than `req` can, when the runtime allows; `auth` is the
     * caller's verified token (none while sign-in is off).
     */
    async handle(req: Request, readBody?: BodyReader, auth?: AuthInfo): Promise<Response> {
      const sessionId = req.headers.get("mcp-session-id");
      switch (req.method) {
        case "POST": {
          const read = await readJsonRpcBody(req, maxBodyBytes, readBody);
          if (!read.ok) return read.response;
          traceJsonRpcBody(read.body);
          if (sessionId) return sessions.handle(sessionId, req, read.body, auth);
          // a request with the 2026-07-28 envelope: no session, every request self-describing (an
          // initialize with it too: that era has no initialize, and it opens no 2025-11-25 session)
          if (await isModernRequest(req, read.body)) return modern.handle(req, read.body, read.wantsProgress, auth);
          if (read.initialize) return sessions.open(req, read.body, auth);
          return stateless.handle(req, read.body, read.wantsProgress, auth);
        }
        case "GET":
        case "DELETE":
          if (sessionId) return sessions.handle(sessionId, req, undefined, auth);
          // Stateless clients have no stream to open or session to end.
          return req.method === "GET"
            ? withAllow(
                jsonRpcError(
                  405,
                  ProtocolErrorCode.InvalidRequest,
                  "GET /mcp opens a session's notification stream: send the Mcp-Session-Id from initialize.",
                ),
                "POST",
              )
            : jsonRpcError(
                400,
                ProtocolErrorCode.InvalidRequest,
                "DELETE /mcp ends a session: send its Mcp-Session-Id.",
              );
        default:
          return withAllow(
            jsonRpcError(405, ProtocolErrorCode.InvalidRequest, `Method ${req.method} is not allowed on /mcp.`),
            "GET, POST, DELETE",
          );
      }
    },
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await Promise.all([sessions.close(), stateless.close(), modern.close()]);
    },
  };
}

function withAllow(response: Response, allow: string): Response {
  response.headers.set("allow", allow);
  return response;
}
