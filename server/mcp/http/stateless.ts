/**
 * A sessionless 2025-11-25 request other than `initialize`: a fresh server on a transport for this
 * one exchange, plain JSON unless it asked for progress (the SDK's fallback answers only SSE, and
 * skips request-guard.ts).
 */
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type Server } from "@modelcontextprotocol/server";
import { connectGuarded } from "./request-guard.js";
import { watchBody } from "../../http/watch-body.js";

export function createStateless({ build, onError }: { build: () => Server; onError: (error: Error) => void }) {
  return async (req: Request, body: unknown, stream: boolean, auth?: AuthInfo): Promise<Response> => {
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !stream });
    await connectGuarded(build(), transport, onError);
    // closing detaches the server and aborts what still runs; deferred a turn, or it would abort
    // (and report) a handler that already finished
    const release = () => setImmediate(() => void transport.close().catch(onError));
    try {
      const response = await transport.handleRequest(req, { parsedBody: body, authInfo: auth });
      if (stream && response.headers.get("content-type")?.startsWith("text/event-stream"))
        return watchBody(response, release);
      release();
      return response;
    } catch (error) {
      release();
      throw error;
    }
  };
}
