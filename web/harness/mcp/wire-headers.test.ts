import type { FetchLike } from "@modelcontextprotocol/client";
import { markRequest, tapHeaders, type RequestId } from "./wire-headers.js";

/** A fetch that records what would have gone on the wire. */
function recorder() {
  const sent: Headers[] = [];
  const inner: FetchLike = async (_url, init) => {
    sent.push(new Headers(init?.headers));
    return new Response(null, { status: 202 });
  };
  return { sent, inner };
}

describe("wire headers", () => {
  it("marks requests only, keeping the caller's options", () => {
    const signal = new AbortController().signal;
    const request = { jsonrpc: "2.0" as const, id: "listen:0", method: "subscriptions/listen" };
    expect(markRequest(request, { requestSignal: signal, headers: { a: "1" } })).toEqual({
      requestSignal: signal,
      headers: { a: "1", "x-harness-request-id": '"listen:0"' },
    });
    const note = { jsonrpc: "2.0" as const, method: "notifications/initialized" };
    expect(markRequest(note, undefined)).toBeUndefined();
    expect(markRequest({ jsonrpc: "2.0", id: 1, result: {} })).toBeUndefined();
  });

  it("reports a marked request's standard headers by id and sends it without the mark", async () => {
    const { sent, inner } = recorder();
    const seen: [RequestId, Record<string, string>][] = [];
    const tapped = tapHeaders(inner, (id, headers) => seen.push([id, headers]));
    const options = markRequest({ jsonrpc: "2.0", id: 7, method: "tools/call" });
    await tapped("http://x/mcp", {
      method: "POST",
      headers: {
        ...options?.headers,
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "suggest_gifts",
      },
    });
    expect(seen).toEqual([
      [7, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "suggest_gifts" }],
    ]);
    expect(sent[0].has("x-harness-request-id")).toBe(false);
    expect(sent[0].get("accept")).toBe("application/json, text/event-stream");
  });

  it("leaves unmarked requests (the session's GET stream, a DELETE, a notification) alone", async () => {
    const { sent, inner } = recorder();
    const report = vi.fn();
    const init = { method: "GET", headers: { "mcp-session-id": "s" } };
    await tapHeaders(inner, report)("http://x/mcp", init);
    expect(report).not.toHaveBeenCalled();
    expect(sent[0].get("mcp-session-id")).toBe("s");
  });
});
