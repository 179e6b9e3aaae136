/**
 * Servers for requests that open no session, in both eras. The SDK wants a fresh transport per
 * request, but a server can serve again once its transport is closed: idle ones wait in a pool
 * (`take`), each serving one exchange at a time, so a call costs no server construction. A
 * 2025-11-25 request with no session that is not `initialize` is served here (`handle`), as plain
 * JSON unless it asked for progress (then SSE); the 2026-07-28 leg hands `take` to the SDK.
 *
 * Why ours: the SDK's stateless fallback builds a server per request, answers only SSE, and skips request-guard.ts.
 */
import type { AuthInfo, Server } from "@modelcontextprotocol/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { connectGuarded } from "./request-guard.js";
import { watchBody } from "../../http/watch-body.js";

/** Idle servers kept for reuse; more are built under load and dropped after. */
const POOL_SIZE = 64;

export function createStateless({ build, onError }: { build: () => Server; onError: (error: Error) => void }) {
  const idle: Server[] = [];
  let closed = false;

  /** A server for one exchange; it comes back when the exchange closes it (its `onclose`, which the SDK chains). */
  const take = (): Server => {
    const reused = idle.pop();
    if (reused) return reused;
    const server = build();
    server.onclose = () => {
      if (!closed && idle.length < POOL_SIZE && !idle.includes(server)) idle.push(server);
    };
    return server;
  };

  return {
    take,
    async handle(req: Request, body: unknown, stream: boolean, auth?: AuthInfo): Promise<Response> {
      const server = take();
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !stream });
      await connectGuarded(server, transport, onError);
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
    },

    close() {
      closed = true;
      idle.length = 0;
    },
  };
}
