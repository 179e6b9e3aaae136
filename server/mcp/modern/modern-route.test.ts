/**
 * `modernRoute` remembers the SDK's verdict on an envelope; this checks, over generated envelopes and
 * headers (valid, malformed, mismatched), that a remembered verdict is the one the SDK gives.
 */
import fc from "fast-check";
import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import { modernRoute } from "./modern-http.js";

/** Mostly `usual`, sometimes one of `others`: most generated requests are well formed. */
const mostly = <T>(usual: T, ...others: T[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(usual, ...others) });
const envelope = fc.record(
  {
    [PROTOCOL_VERSION_META_KEY]: mostly<unknown>("2026-07-28", "2025-11-25", "2027-01-01", 20260728),
    "io.modelcontextprotocol/clientCapabilities": fc.constantFrom<unknown>(
      {},
      { roots: { listChanged: true } },
      { roots: { listChanged: "yes" } },
      { extensions: { "io.modelcontextprotocol/tasks": {} } },
      { elicitation: { form: {} } },
      { experimental: { a: 1 } },
      { somethingNew: 1 },
      "all",
    ),
    "io.modelcontextprotocol/clientInfo": fc.constantFrom<unknown>({ name: "c", version: "1" }, { name: "c" }, 7),
    "io.modelcontextprotocol/logLevel": fc.constantFrom<unknown>("info", "loud"),
    progressToken: fc.constantFrom<unknown>("p", 3),
    "com.example/trace": fc.constantFrom<unknown>({ span: 1 }),
  },
  { requiredKeys: [PROTOCOL_VERSION_META_KEY] },
);
const method = fc.constantFrom("tools/call", "tools/list", "prompts/get", "ping", "initialize", "subscriptions/listen");

const request = fc.record({
  id: fc.oneof(fc.nat(), fc.string({ maxLength: 3 })),
  method,
  _meta: envelope,
  name: fc.constantFrom("suggest_gifts", "list_jobs"),
  versionHeader: mostly<string | undefined>("2026-07-28", undefined, " 2026-07-28", "2025-11-25", "2027-01-01"),
  methodHeader: mostly<string | undefined>("same", undefined, "tools/list"),
});

type Sample = typeof request extends fc.Arbitrary<infer T> ? T : never;

function framed({ id, method, _meta, name, versionHeader, methodHeader }: Sample) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (versionHeader !== undefined) headers["mcp-protocol-version"] = versionHeader;
  if (methodHeader !== undefined) headers["mcp-method"] = methodHeader === "same" ? method : methodHeader;
  const body = { jsonrpc: "2.0", id, method, params: { name, _meta } };
  return { req: new Request("http://127.0.0.1/mcp", { method: "POST", headers }), body };
}

/** What `modernRoute` answers when the SDK classifies every request. */
function bySdk(req: Request, body: { method: string; params: { _meta: object } }) {
  const route = classifyInboundRequest({
    httpMethod: req.method,
    protocolVersionHeader: req.headers.get("mcp-protocol-version") ?? undefined,
    mcpMethodHeader: req.headers.get("mcp-method") ?? undefined,
    body,
  });
  const claims = PROTOCOL_VERSION_META_KEY in body.params._meta;
  return (claims && body.method !== "initialize") || route.kind !== "legacy" ? route : undefined;
}

it("answers every request as the SDK classifies it, the first time and when it remembers", () => {
  let remembered = 0;
  fc.assert(
    fc.property(request, (sample) => {
      const { req, body } = framed(sample);
      const expected = bySdk(req, body);
      if (expected?.kind === "modern" && sample.versionHeader === "2026-07-28" && sample.methodHeader === "same")
        remembered++;
      expect(modernRoute(req, body)).toEqual(expected);
      expect(modernRoute(req, structuredClone(body))).toEqual(expected);
    }),
    { numRuns: 2_000 },
  );
  // many requests were of the kind whose verdict is remembered, not only refusals
  expect(remembered).toBeGreaterThan(100);
});
