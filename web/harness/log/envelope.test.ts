import { envelopeOf } from "./envelope.js";

describe("envelopeOf", () => {
  it("takes the reserved keys of a request's _meta, and leaves the others", () => {
    const request = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: {
        name: "suggest_gifts",
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "h", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
          "openai/locale": "en-US",
        },
      },
    };
    expect(envelopeOf(request)).toEqual({
      protocolVersion: "2026-07-28",
      clientInfo: { name: "h", version: "1" },
      clientCapabilities: {},
    });
  });

  it("reads a reply's result and a notification's params", () => {
    const reply = { jsonrpc: "2.0", id: 3, result: { _meta: { "io.modelcontextprotocol/serverInfo": { name: "s" } } } };
    expect(envelopeOf(reply)).toEqual({ serverInfo: { name: "s" } });
    const ack = {
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "listen:0" }, notifications: {} },
    };
    expect(envelopeOf(ack)).toEqual({ subscriptionId: "listen:0" });
  });

  it("is null for a 2025-11-25 message, with or without other _meta keys", () => {
    expect(envelopeOf({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBeNull();
    expect(
      envelopeOf({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: { progressToken: 1 } } }),
    ).toBeNull();
    expect(envelopeOf("not a message")).toBeNull();
  });
});
