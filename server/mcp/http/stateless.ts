/**
 * Stateless MCP requests (a POST with no session id that is not `initialize`). The SDK wants a
 * fresh transport per request, but the server behind it can be reused once its transport is
 * closed: servers wait in a small pool, each serving one request at a time, so a call costs no
 * server construction. Answers are plain JSON unless a request asked for progress (then SSE).
 *
 * Why ours: the SDK's stateless fallback builds a server per request and has no edge for request-guard.ts; ours reuses them.
 */
import type { AuthInfo } from "@modelcontextprotocol/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { guardRequests } from "./request-guard.js";
import type { BuiltServer } from "../server.js";
import { watchBody } from "../../http/watch-body.js";

export type StatelessOptions = {
  build: () => BuiltServer;
  /** Idle servers kept for reuse; more are built under load and dropped after. */
  poolSize: number;
  onError: (error: Error) => void;
};

export function createStateless({ build, poolSize, onError }: StatelessOptions) {
  const idle: BuiltServer[] = [];
  let closed = false;

  return {
    async handle(req: Request, body: unknown, stream: boolean, auth?: AuthInfo): Promise<Response> {
      const built = idle.pop() ?? build();
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !stream });
      transport.onerror = onError;
      await built.server.connect(transport);
      guardRequests(transport);
      // Closing the transport detaches the server (and aborts anything still running for it).
      // Deferred a turn so the SDK's bookkeeping for the answered request is done; closing
      // earlier would abort (and build an error for) a handler that already finished.
      const release = () => {
        setImmediate(() => {
          transport
            .close()
            .catch(onError)
            .finally(() => (!closed && idle.length < poolSize ? idle.push(built) : built.dispose()));
        });
      };
      try {
        const response = await transport.handleRequest(req, { parsedBody: body, authInfo: auth });
        if (stream && response.body !== null && response.headers.get("content-type")?.startsWith("text/event-stream")) {
          return watchBody(response, release);
        }
        release();
        return response;
      } catch (error) {
        release();
        throw error;
      }
    },

    async close() {
      closed = true;
      for (const built of idle.splice(0)) built.dispose();
    },
  };
}
