/**
 * Identity is exact, with tokens a real provider signs: a `sub` that is not a non-empty string is
 * refused with 401 saying why (it names no one, so it must not act as anyone); a token never becomes
 * the anonymous subject; and subjects are namespaced by issuer, so two issuers' `sub` "1" never meet,
 * in memory and on Redis (quotas and jobs keyed by the namespaced subject).
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decodeJwt } from "jose";
import { TOOL } from "../../shared/tools.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { createRedisStore } from "../jobs/stores/redis.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../../test-kit/redis.js";
import { callTool, startJob, startTestServer, toolError, type TestServer } from "../../test-kit/servers/test-server.js";
import { subjectFor } from "./subject.js";
import { startTestProvider, type TestProvider } from "../../test-kit/servers/oidc-provider.js";

const PUBLIC_URL = "https://gifts.example.test";
const RESOURCE = `${PUBLIC_URL}/mcp`;
const CSV = "name,department,interests\nAda,Sales,coffee";
const unreachable = await redisUnreachable("the identity tests on Redis");

let provider: TestProvider;
let server: TestServer;

beforeAll(async () => {
  provider = await startTestProvider();
  server = await startTestServer({ auth: { issuer: provider.issuer, publicUrl: PUBLIC_URL, scopes: ["gifts"] } });
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

const initialize = (url: URL, token: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });

async function connect(url: URL, token: string): Promise<Client> {
  const client = new Client({ name: "identity-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

const eventsOf = (jobId: string, subject: string) =>
  server.jobs.getEvents({ jobId, afterSeq: 0, limit: 10, waitMs: 0 }, { subject });

describe("a token's sub", () => {
  it.each([
    { shape: "the number 123", sub: 123 },
    { shape: "the number 456", sub: 456 },
    { shape: "an empty string", sub: "" },
    { shape: "null", sub: null },
    { shape: "an object", sub: { id: "x" } },
    { shape: "missing", sub: undefined },
  ])("that is $shape is refused with 401 invalid_token saying why", async ({ sub }) => {
    const token = await provider.signIn("someone", { resource: RESOURCE, claims: { sub } });
    // the provider did sign the odd claim: the refusal is ours, not the provider's
    expect(decodeJwt(token).sub).toEqual(sub);
    expect(Object.hasOwn(decodeJwt(token), "sub")).toBe(sub !== undefined);
    const response = await initialize(server.mcpUrl, token);
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="invalid_token"');
    const why = sub === undefined ? /has no sub claim/ : /sub claim is not a non-empty string/;
    expect(challenge).toMatch(why);
    expect((await response.json()).error.message).toMatch(why);
  });

  it('that is "anonymous" is a signed-in user of its own, never the anonymous subject', async () => {
    const token = await provider.signIn("anonymous", { resource: RESOURCE });
    const client = await connect(server.mcpUrl, token);
    try {
      const { jobId } = await startJob(client, { csv: CSV, occasion: "farewell", budgetPerPerson: 40 });
      expect((await eventsOf(jobId, subjectFor(provider.issuer, "anonymous"))).ok).toBe(true);
      expect((await eventsOf(jobId, "anonymous")).ok).toBe(false);
    } finally {
      await client.close();
    }
  });

  it("2002 (a number) is refused, and the user 2002 can neither read nor delete the job of 1001", async () => {
    const owner = await connect(server.mcpUrl, await provider.signIn("1001", { resource: RESOURCE }));
    const other = await connect(server.mcpUrl, await provider.signIn("2002", { resource: RESOURCE }));
    try {
      const { jobId } = await startJob(owner, { csv: CSV, occasion: "farewell", budgetPerPerson: 40 });
      for (const sub of [2002, 1001]) {
        const numeric = await provider.signIn(String(sub), { resource: RESOURCE, claims: { sub } });
        expect((await initialize(server.mcpUrl, numeric)).status, String(sub)).toBe(401);
      }
      for (const tool of [TOOL.getJobEvents, TOOL.deleteJob]) {
        const refused = await callTool(other, tool, { jobId, ...(tool === TOOL.getJobEvents ? { afterSeq: 0 } : {}) });
        expect(toolError(refused).code, tool).toBe("unknown_job");
      }
      expect((await callTool(owner, TOOL.getJobEvents, { jobId, afterSeq: 0 })).isError).toBeFalsy();
    } finally {
      await owner.close();
      await other.close();
    }
  });
});

describe("two issuers", () => {
  it('keep their users apart: issuer B\'s sub "1" cannot see the job of issuer A\'s sub "1"', async () => {
    const second = await startTestProvider();
    const jobs = createJobService({ store: createMemoryStore(), match: matchGifts });
    const auth = (issuer: string) => ({ issuer, publicUrl: PUBLIC_URL, scopes: ["gifts"] });
    const [a, b] = await Promise.all([
      startTestServer({ auth: auth(provider.issuer), jobs }),
      startTestServer({ auth: auth(second.issuer), jobs }),
    ]);
    const one = await connect(a.mcpUrl, await provider.signIn("1", { resource: RESOURCE }));
    const sameName = await connect(b.mcpUrl, await second.signIn("1", { resource: RESOURCE }));
    try {
      const { jobId } = await startJob(one, { csv: CSV, occasion: "farewell", budgetPerPerson: 40 });
      const foreign = await callTool(sameName, TOOL.getJobEvents, { jobId, afterSeq: 0 });
      expect(toolError(foreign).code).toBe("unknown_job");
      expect((await callTool(one, TOOL.getJobEvents, { jobId, afterSeq: 0 })).isError).toBeFalsy();
      expect(subjectFor(provider.issuer, "1")).not.toBe(subjectFor(second.issuer, "1"));
    } finally {
      await one.close();
      await sameName.close();
      await Promise.all([a.close(), b.close()]);
      await second.close();
    }
  });
});

describe.skipIf(unreachable !== undefined)("two issuers on one Redis", () => {
  const prefix = `giftgenius-test:${randomUUID()}:`;
  afterAll(async () => {
    const admin = new Redis(redisUrl);
    await deleteKeysUnder(admin, prefix);
    await admin.quit();
  });

  it('keep the quotas, sessions and jobs of their two users "1" apart', async () => {
    const second = await startTestProvider();
    const instanceFor = (issuer: string) => {
      const store = createRedisStore({ url: redisUrl, keyPrefix: prefix });
      return startTestServer({
        auth: { issuer, publicUrl: PUBLIC_URL, scopes: ["gifts"] },
        jobs: createJobService({ store, match: matchGifts, limits: { maxStartsPerHour: 1 } }),
      });
    };
    const [a, b] = await Promise.all([instanceFor(provider.issuer), instanceFor(second.issuer)]);
    const one = await connect(a.mcpUrl, await provider.signIn("1", { resource: RESOURCE }));
    const sameName = await connect(b.mcpUrl, await second.signIn("1", { resource: RESOURCE }));
    try {
      const start = { csv: CSV, occasion: "farewell", budgetPerPerson: 40 };
      const { jobId } = await startJob(one, start);
      expect(toolError(await callTool(one, TOOL.startBulk, start)).code).toBe("rate_limited");
      // the other issuer's "1" has a quota of its own, and no sight of the first one's job
      const { jobId: theirs } = await startJob(sameName, start);
      expect(toolError(await callTool(sameName, TOOL.getJobEvents, { jobId, afterSeq: 0 })).code).toBe("unknown_job");
      expect(toolError(await callTool(one, TOOL.getJobEvents, { jobId: theirs, afterSeq: 0 })).code).toBe(
        "unknown_job",
      );
      expect((await callTool(one, TOOL.getJobEvents, { jobId, afterSeq: 0 })).isError).toBeFalsy();
      expect((await callTool(sameName, TOOL.getJobEvents, { jobId: theirs, afterSeq: 0 })).isError).toBeFalsy();
    } finally {
      await one.close();
      await sameName.close();
      await Promise.all([a.close(), b.close()]);
      await second.close();
    }
  });
});
