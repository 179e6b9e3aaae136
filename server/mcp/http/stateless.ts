/**
 * A 2025-11-25 request with no session that is not `initialize`: a fresh server (a few µs: what is
 * costly to build is shared, server.ts) on a transport for this one exchange, answering plain JSON
 * unless the request asked for progress (then SSE).
 *
 * Why ours: the SDK's stateless fallback answers only SSE, and skips request-guard.ts.
 */
import type { AuthInfo, Server } from "@modelcontextprotocol/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { connectGuarded } from "./request-guard.js";
import { watchBody } from "../../http/watch-body.js";

export function createStateless({ build, onError }: { build: () => Server; onError: (error: Error) => void }) {
  return async (req: Request, body: unknown, stream: boolean, auth?: AuthInfo): Promise<Response> => {
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !stream });
    await connectGuarded(build(), transport, onError);
    // Closing the transport detaches the server (and aborts anything still running for it).
    // Deferred a turn so the SDK's bookkeeping for the answered request is done; closing
    // earlier would abort (and build an error for) a handler that already finished.
    const release = () => setImmediate(() => void transport.close().catch(onError));
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
  };
}
