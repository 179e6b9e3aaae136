/**
 * Whose data is whose, with two real signed-in subjects: Bob holding Alice's job id learns nothing
 * of it on any path (tools, resources, subscriptions, his notification stream), and Alice's
 * session id does not work for him. On one instance, and on two instances sharing jobs over Redis
 * with requests in turn, each session's to the instance its id's tag names (as nginx routes them).
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { TOOL, URI } from "../../shared/tools.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { createJobService } from "../jobs/job-service.js";
import { createRedisStore } from "../jobs/stores/redis.js";
import { matchGifts } from "../gifts/matcher.js";
import { deleteKeysUnder, redisUnreachable, redisUrl } from "../../test-kit/redis.js";
import {
  callTool,
  readJobHistory,
  startJob,
  startTestServer,
  toolText,
  type TestServer,
} from "../../test-kit/servers/test-server.js";
import { startTestProvider, type TestProvider } from "../../test-kit/servers/oidc-provider.js";

const RESOURCE = "https://gifts.example.test/mcp";

const unreachable = await redisUnreachable("the isolation tests across instances");
const prefix = `giftgenius-test:${randomUUID()}:`;

let provider: TestProvider;
const tokens = { alice: "", bob: "" };

beforeAll(async () => {
  provider = await startTestProvider();
  tokens.alice = await provider.signIn("alice", { resource: RESOURCE });
  tokens.bob = await provider.signIn("bob", { resource: RESOURCE });
});
afterAll(async () => {
  await provider?.close();
  if (unreachable === undefined) {
    const admin = new Redis(redisUrl);
    await deleteKeysUnder(admin, prefix);
    await admin.quit();
  }
});

/** `count` signed-in servers, tagged `i0`, `i1`…: alone in memory, or sharing jobs on Redis. */
async function startServers(count: number, shared: boolean): Promise<TestServer[]> {
  const auth = { issuer: provider.issuer, publicUrl: "https://gifts.example.test", scopes: ["gifts"] };
  if (!shared) return [await startTestServer({ auth })];
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const store = createRedisStore({ url: redisUrl, keyPrefix: prefix });
      return startTestServer({ auth, jobs: createJobService({ store, match: matchGifts }), instanceId: `i${i}` });
    }),
  );
}

let servers: TestServer[] = [];
let turn = 0;
/** As nginx routes: a session's request to the instance its id's tag names, any other to the next in turn. */
const next = (sessionId?: string | null) => {
  const tagged = servers.findIndex((_, i) => sessionId?.startsWith(`i${i}.`));
  return servers[tagged >= 0 ? tagged : turn++ % servers.length].mcpUrl;
};

type Heard = { method: string; params?: Record<string, unknown> };

/** The official client as `who`, with its standalone GET stream open and every notification kept. */
async function connectAs(who: keyof typeof tokens) {
  let streamOpen = () => {};
  const opened = new Promise<void>((resolve) => (streamOpen = resolve));
  const fetchFn: FetchLike = async (_url, init) => {
    const response = await fetch(next(new Headers(init?.headers).get("mcp-session-id")), init);
    if ((init?.method ?? "GET") === "GET" && response.ok) streamOpen();
    return response;
  };
  const client = new Client({ name: `test-${who}`, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(servers[0].mcpUrl, {
    fetch: fetchFn,
    requestInit: { headers: { authorization: `Bearer ${tokens[who]}` } },
  });
  const heard: Heard[] = [];
  client.fallbackNotificationHandler = async (n) => void heard.push(n);
  await client.connect(transport);
  await opened;
  return { client, heard, sessionId: transport.sessionId ?? "" };
}

/** What a tool or read says, with the job id taken out, so two answers can be compared. */
const anonymised = (text: string, jobId: string) => text.split(jobId).join("<job>");

const rpcError = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e as { code?: number; message?: string; data?: unknown },
  );
  if (!error) throw new Error("expected a JSON-RPC error");
  return { code: error.code, message: error.message, data: error.data };
};

describe.each([
  { shared: false, where: "on one instance" },
  ...(unreachable === undefined
    ? [{ shared: true, where: "on two instances sharing jobs, sessions routed by their tag" }]
    : []),
])("two signed-in subjects $where", ({ shared }) => {
  beforeAll(async () => {
    servers = await startServers(shared ? 2 : 1, shared);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });

  it("Bob learns nothing of Alice's job on any path, and his stream never carries her notifications", async () => {
    const alice = await connectAs("alice");
    const bob = await connectAs("bob");
    try {
      const { jobId } = await startJob(alice.client, {
        csv: employeeCsv(2000),
        occasion: "farewell",
        budgetPerPerson: 40,
      });
      await alice.client.subscribeResource({ uri: URI.jobResult(jobId) });
      // a made-up id of the same shape: what "no such job" looks like
      const missing = `job_${"x".repeat(22)}`;
      const calls = [
        [TOOL.getJobEvents, { afterSeq: 0 }],
        [TOOL.waitForJob, { timeoutMs: 0 }],
        [TOOL.getJobResult, {}],
        [TOOL.getJobTable, {}],
        [TOOL.cancelJob, {}],
      ] as const;
      for (const [tool, args] of calls) {
        const foreign = await callTool(bob.client, tool, { jobId, ...args });
        const unknown = await callTool(bob.client, tool, { jobId: missing, ...args });
        expect(foreign.isError, tool).toBe(true);
        expect(anonymised(JSON.stringify(foreign), jobId), tool).toBe(anonymised(JSON.stringify(unknown), missing));
      }
      for (const method of ["read", "subscribe"] as const) {
        const call = (id: string) =>
          method === "read"
            ? bob.client.readResource({ uri: URI.jobResult(id) })
            : bob.client.subscribeResource({ uri: URI.jobResult(id) });
        const foreign = await rpcError(call(jobId));
        const unknown = await rpcError(call(missing));
        expect(foreign.code, method).toBe(-32002);
        expect(anonymised(JSON.stringify(foreign), jobId), method).toBe(anonymised(JSON.stringify(unknown), missing));
      }
      // Alice still has her job, untouched by Bob's cancel: it finishes and she hears of it
      const history = await readJobHistory(alice.client, jobId);
      expect(history.events.map((e) => e.type)).not.toContain("job.canceled");
      const done = await callTool(alice.client, TOOL.waitForJob, { jobId, timeoutMs: 20_000 });
      expect(toolText(done)).toMatch(/completed/);
      // sent before wait_for_job answered, but on another connection: a loaded machine may take a while
      await vi.waitFor(
        () =>
          expect(alice.heard.map((n) => n.method)).toEqual(
            expect.arrayContaining(["notifications/job/completed", "notifications/resources/updated"]),
          ),
        { timeout: 10_000 },
      );
      expect(JSON.stringify(bob.heard)).not.toContain(jobId);
    } finally {
      await alice.client.close();
      await bob.client.close();
    }
  });

  it("a subscription that takes hold after Alice's job ended still tells her its result is there", async () => {
    const alice = await connectAs("alice");
    try {
      const { jobId } = await startJob(alice.client, {
        csv: employeeCsv(20),
        occasion: "farewell",
        budgetPerPerson: 40,
      });
      const done = await callTool(alice.client, TOOL.waitForJob, { jobId, timeoutMs: 20_000 });
      expect(toolText(done)).toMatch(/completed/);
      // the far end of the race between a subscription and the job's end: the end came first
      const uri = URI.jobResult(jobId);
      await alice.client.subscribeResource({ uri });
      await vi.waitFor(() =>
        expect(alice.heard).toContainEqual(
          expect.objectContaining({ method: "notifications/resources/updated", params: { uri } }),
        ),
      );
    } finally {
      await alice.client.close();
    }
  });

  it("a session id used by another subject answers as an unknown session", async () => {
    const alice = await connectAs("alice");
    // the instance that holds Alice's session, where nginx sends whoever uses its id
    const target = () => next(alice.sessionId);
    try {
      const post = (sessionId: string, token: string) =>
        fetch(target(), {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-session-id": sessionId,
            "mcp-protocol-version": "2025-11-25",
            authorization: `Bearer ${token}`,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
        });
      const stolen = await post(alice.sessionId, tokens.bob);
      const unknown = await post(crypto.randomUUID(), tokens.bob);
      expect(stolen.status).toBe(404);
      expect(await stolen.text()).toBe(await unknown.text());
      const get = await fetch(target(), {
        headers: {
          accept: "text/event-stream",
          "mcp-session-id": alice.sessionId,
          authorization: `Bearer ${tokens.bob}`,
        },
      });
      expect(get.status).toBe(404);
      await get.body?.cancel();
      // the session itself is unharmed: Alice goes on using it
      const own = await post(alice.sessionId, tokens.alice);
      expect(own.status).toBe(200);
      await own.body?.cancel();
      expect((await alice.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await alice.client.close();
    }
  });
});
