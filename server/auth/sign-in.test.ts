import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decodeJwt } from "jose";
import { TOOL } from "../../shared/tools.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { createToolSpecs } from "../mcp/server.js";
import { createToolRegistry } from "../mcp/tool-registry.js";
import {
  callTool,
  postInitialize,
  startJob,
  startTestServer,
  toolError,
  type TestServer,
} from "../../test-kit/servers/test-server.js";
import { loadWidget } from "../widget.js";
import type { AuthOptions } from "./auth-options.js";
import { createBearerAuth } from "./bearer-auth.js";
import { subjectFor } from "./subject.js";
import { startTestProvider, type TestProvider } from "../../test-kit/servers/oidc-provider.js";

const PUBLIC_URL = "https://gifts.example.test";
const RESOURCE = `${PUBLIC_URL}/mcp`;
const METADATA_URL = `${PUBLIC_URL}/.well-known/oauth-protected-resource`;

let provider: TestProvider;
let server: TestServer;
let auth: AuthOptions;

beforeAll(async () => {
  provider = await startTestProvider();
  auth = { issuer: provider.issuer, publicUrl: PUBLIC_URL, scopes: ["gifts"] };
  server = await startTestServer({ auth });
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

/** The official MCP client, sending `token` as its bearer token. */
async function connectAs(token: string): Promise<Client> {
  const client = new Client({ name: "giftgenius-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(server.mcpUrl, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

const initialize = (headers: Record<string, string>) => postInitialize(server.mcpUrl, headers);

describe("sign-in", () => {
  it("serves the protected-resource metadata at the root and with the resource path", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [provider.issuer],
        scopes_supported: ["gifts"],
        bearer_methods_supported: ["header"],
        resource_name: "GiftGenius",
      });
    }
  });

  it("answers a request without a token with 401, a challenge pointing at the metadata, and a JSON-RPC error", async () => {
    const response = await initialize({});
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
    expect(challenge).toContain('scope="gifts"');
    const body = await response.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(body.error.message).toMatch(/Authorization: Bearer/);
  });

  it("lets a signed-in caller use the tools, which declare the OAuth scopes they need", async () => {
    const token = await provider.signIn("alice", { resource: RESOURCE });
    expect(decodeJwt(token)).toMatchObject({ sub: "alice", aud: RESOURCE, iss: provider.issuer, scope: "gifts" });
    const client = await connectAs(token);
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        expect(tool._meta?.securitySchemes).toEqual([{ type: "oauth2", scopes: ["gifts"] }]);
      }
      const suggested = await callTool(client, TOOL.suggestGifts, {
        recipient: "a colleague who loves coffee",
        budget: 50,
        occasion: "birthday",
      });
      expect(suggested.isError).toBeFalsy();
      const { jobId } = await startJob(client, {
        csv: "name,department,interests\nAda,Sales,coffee",
        occasion: "farewell",
        budgetPerPerson: 40,
      });
      const job = await server.jobs.getEvents(
        { jobId, afterSeq: 0, limit: 10, waitMs: 0 },
        { subject: subjectFor(provider.issuer, "alice") },
      );
      expect(job.ok).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("refuses an expired token, a token for another resource and a forged one with 401 invalid_token", async () => {
    const expired = await provider.signIn("alice", { resource: RESOURCE, ttlSeconds: 1 });
    const otherAudience = await provider.signIn("alice", { resource: "https://elsewhere.example.test/mcp" });
    const good = await provider.signIn("alice", { resource: RESOURCE });
    const [header, payload] = good.split(".");
    const forged = `${header}.${payload}.${Buffer.from("not the signature").toString("base64url")}`;
    const exp = decodeJwt(expired).exp ?? 0;
    // the token's expiry is whole seconds: wait until it has surely passed
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 - Date.now()) + 1100));

    const reasons: Record<string, RegExp> = {
      expired: /expired/,
      otherAudience: /not issued for this server/,
      forged: /not a valid signed token/,
    };
    for (const [name, token] of Object.entries({ expired, otherAudience, forged })) {
      const response = await initialize({ authorization: `Bearer ${token}` });
      expect(response.status, name).toBe(401);
      const challenge = response.headers.get("www-authenticate") ?? "";
      expect(challenge, name).toContain('error="invalid_token"');
      expect(challenge, name).toContain(`resource_metadata="${METADATA_URL}"`);
      expect((await response.json()).error.message, name).toMatch(reasons[name]);
    }
    // the good token still works: the refusals were about the tokens, not the server
    expect((await initialize({ authorization: `Bearer ${good}` })).status).toBe(200);
  });

  it("refuses a token without the needed scope with 403 insufficient_scope", async () => {
    const token = await provider.signIn("alice", { resource: RESOURCE, scope: "extra" });
    const response = await initialize({ authorization: `Bearer ${token}` });
    expect(response.status).toBe(403);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="gifts"');
    expect((await response.json()).error.message).toMatch(/lacks the scope\(s\) gifts/);
  });
});

describe("a tool called with a token that lacks its scopes", () => {
  it("is refused with isError and the challenge in _meta['mcp/www_authenticate'], as its securitySchemes warn", async () => {
    const jobs = createJobService({ store: createMemoryStore(), match: matchGifts });
    const bearer = createBearerAuth(auth);
    const specs = createToolSpecs({ jobs, matchGifts, widget: loadWidget("dist/widget/index.html") });
    const registry = createToolRegistry(specs, undefined, { scopes: ["gifts"], challenge: bearer.challenge });
    const ctx = (scopes: string[]) => ({
      caller: { subject: "alice" },
      scopes,
      signal: new AbortController().signal,
      meta: {},
      progress: () => {},
    });
    for (const tool of registry.list.tools) {
      expect(tool).toMatchObject({ securitySchemes: [{ type: "oauth2", scopes: ["gifts"] }] });
    }
    // without sign-in every tool says it needs none
    for (const tool of createToolRegistry(specs).list.tools) {
      expect(tool).toMatchObject({
        securitySchemes: [{ type: "noauth" }],
        _meta: { securitySchemes: [{ type: "noauth" }] },
      });
    }
    const args = { recipient: "a friend who loves tea", budget: 30, occasion: "birthday" };
    try {
      const refused = await registry.call(TOOL.suggestGifts, args, ctx(["extra"]));
      expect(toolError(refused).code).toBe("unauthorized");
      const [challenge] = refused._meta?.["mcp/www_authenticate"] as string[];
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
      expect((await registry.call(TOOL.suggestGifts, args, ctx(["gifts"]))).isError).toBeFalsy();
    } finally {
      await jobs.close();
    }
  });
});
