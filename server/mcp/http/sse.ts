/**
 * A server-sent event stream as a response that no cache keeps or transforms. That no proxy holds it
 * back is said for every event stream at once (server/app.ts).
 *
 * Why ours: the SDK's SSE responses are built inside its transport; ours outside it need the same headers.
 */
export function sseResponse(body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      ...headers,
    },
  });
}
