import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { JobEventSchema, notificationMethodFor, type JobEvent } from "../../../shared/job-events.js";
import { FILE_TOOL } from "../../../shared/files.js";
import { StartBulkOutput, TOOL } from "../../../shared/tools.js";
import { PACE_META_KEY } from "../../dev-pace.js";
import { eventTypeForMethod } from "../../../test-kit/job-events.js";
import {
  connectClient,
  openRawSession,
  postRaw,
  readSse,
  startTestServer,
  type TestServer,
} from "../../../test-kit/servers/test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ devPace: true });
});
afterAll(async () => {
  await server.close();
});

const csvOf = (rows: number) =>
  ["name,department,interests", ...Array.from({ length: rows }, (_, i) => `P${i},Sales,wine;travel`)].join("\n");

/** Collects a client's notifications and lets a test wait for one. */
function listen(client: Client) {
  const seen: { method: string; params?: Record<string, unknown> }[] = [];
  const waiters: {
    match: (m: { method: string; params?: Record<string, unknown> }) => boolean;
    resolve: () => void;
  }[] = [];
  client.fallbackNotificationHandler = async (n) => {
    seen.push(n);
    for (const w of waiters.filter((w) => w.match(n))) w.resolve();
  };
  return {
    seen,
    until: (match: (m: { method: string; params?: Record<string, unknown> }) => boolean) =>
      seen.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve })),
  };
}

async function startJob(client: Client, rows: number): Promise<string> {
  const result = await client.callTool({
    name: TOOL.startBulk,
    arguments: { csv: csvOf(rows), occasion: "farewell", budgetPerPerson: 60 },
  });
  return StartBulkOutput.parse(result.structuredContent).jobId;
}

/** Reads `sse` to its end; a stream that never ends times the test out. */
async function untilEnded(sse: ReturnType<typeof readSse>): Promise<void> {
  for (;;) {
    const ended = await sse.next().then(
      () => false,
      (error: Error) => error.message === "The event stream ended" || Promise.reject(error),
    );
    if (ended) return;
  }
}

const completedFor = (jobId: string) => (m: { method: string; params?: Record<string, unknown> }) =>
  m.method === "notifications/job/completed" && m.params?.jobId === jobId;

describe("stateful sessions", () => {
  it("give each client its own session, and job notifications only to the session that started the job", async () => {
    const [a, b] = [await connectClient(server.mcpUrl), await connectClient(server.mcpUrl)];
    const [idA, idB] = [a, b].map((c) => (c.transport as StreamableHTTPClientTransport).sessionId);
    expect(idA).toEqual(expect.any(String));
    expect(idA).not.toBe(idB);
    const [heardA, heardB] = [listen(a), listen(b)];

    const jobA = await startJob(a, 50);
    await heardA.until(completedFor(jobA));
    const jobB = await startJob(b, 10);
    await heardB.until(completedFor(jobB));

    const eventsA = heardA.seen.filter((n) => n.method.startsWith("notifications/job/"));
    expect(eventsA.map((n) => n.method)).toEqual(
      expect.arrayContaining(["notifications/job/created", "notifications/job/started", "notifications/job/completed"]),
    );
    for (const n of eventsA) {
      const event = JobEventSchema.parse(n.params);
      expect(n.method).toBe(notificationMethodFor(event.type));
      expect(event.jobId).toBe(jobA);
    }
    expect(heardB.seen.filter((n) => n.params?.jobId === jobA)).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  it("start their ids with the instance's tag, which nginx routes by: INSTANCE_ID, or one random per process", async () => {
    const tagged = await startTestServer({ instanceId: "web-2" });
    try {
      const [first, second] = [await openRawSession(tagged.mcpUrl), await openRawSession(tagged.mcpUrl)];
      expect(first.sessionId).toMatch(/^web-2\.[0-9a-f-]{36}$/);
      expect(second.sessionId).not.toBe(first.sessionId);
    } finally {
      await tagged.close();
    }
    const [one, other] = [await openRawSession(server.mcpUrl), await openRawSession(server.mcpUrl)];
    expect(one.sessionId).toMatch(/^[0-9a-f]{8}\.[0-9a-f-]{36}$/);
    expect(other.sessionId.split(".")[0]).toBe(one.sessionId.split(".")[0]);
  });
});

describe("stateful sessions: log level, DELETE, resumed streams", () => {
  it("send log messages for job start and end only once the client set a log level", async () => {
    const client = await connectClient(server.mcpUrl);
    const heard = listen(client);
    const quiet = await startJob(client, 5);
    await heard.until(completedFor(quiet));
    await client.setLoggingLevel("info");
    const logged = await startJob(client, 5);
    await heard.until(
      (m) => m.method === "notifications/message" && String(m.params?.data).includes(`${logged} completed`),
    );
    const logs = heard.seen.filter((n) => n.method === "notifications/message").map((n) => String(n.params?.data));
    expect(logs).toEqual([
      `Gift analysis ${logged} started.`,
      expect.stringContaining(`Gift analysis ${logged} completed`),
    ]);
    await client.close();
  });

  it("end on DELETE", async () => {
    const client = await connectClient(server.mcpUrl);
    const transport = client.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId ?? "";
    await transport.terminateSession();
    const after = await postRaw(server.mcpUrl, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
      "mcp-session-id": sessionId,
    });
    expect(after.status).toBe(404);
    expect((await after.json()).error.message).toMatch(/Session not found/);
    await client.close();
  });

  it("replay what the standalone GET stream missed after Last-Event-ID, then keep it live", async () => {
    const session = await openRawSession(server.mcpUrl);
    const openStream = (lastEventId?: string) =>
      fetch(server.mcpUrl, {
        headers: {
          accept: "text/event-stream",
          ...session.headers,
          ...(lastEventId ? { "last-event-id": lastEventId } : {}),
        },
      });
    const nextEvent = async (sse: ReturnType<typeof readSse>) => {
      const raw = await sse.next();
      const message = JSON.parse(raw.data);
      return { id: raw.id, type: eventTypeForMethod(message.method), event: message.params as JobEvent };
    };
    const start = async (rows: number) => {
      const reply = await session.request("tools/call", {
        name: TOOL.startBulk,
        arguments: { csv: csvOf(rows), occasion: "holiday", budgetPerPerson: 40 },
      });
      return StartBulkOutput.parse((reply.result as { structuredContent: unknown }).structuredContent).jobId;
    };

    const first = readSse(await openStream());
    const jobId = await start(200);
    const created = await nextEvent(first);
    expect(created).toMatchObject({ type: "job.created", event: { jobId, seq: 1 } });
    expect(created.id).toEqual(expect.any(String));
    await session.request("tools/call", { name: TOOL.waitForJob, arguments: { jobId } });

    // the first stream is still open here, as a dropped connection can look for a while: the resume takes over
    const resumed = await openStream(created.id);
    expect(resumed.status).toBe(200);
    await untilEnded(first);
    const replay = readSse(resumed);
    const seqs: number[] = [];
    for (let e = await nextEvent(replay); ; e = await nextEvent(replay)) {
      expect(e.event.jobId).toBe(jobId);
      seqs.push(e.event.seq);
      if (e.type === "job.completed") break;
    }
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 2));

    const next = await start(5);
    expect(await nextEvent(replay)).toMatchObject({ type: "job.created", event: { jobId: next } });
    await replay.close();
  });

  it("let a resumed request stream take over from the connection it replaces, which still looks open here", async () => {
    const session = await openRawSession(server.mcpUrl);
    const reply = await session.request("tools/call", {
      name: TOOL.startBulk,
      arguments: { csv: csvOf(50), occasion: "holiday", budgetPerPerson: 40 },
      _meta: { [PACE_META_KEY]: 200 },
    });
    const { jobId } = StartBulkOutput.parse((reply.result as { structuredContent: unknown }).structuredContent);
    const wait = {
      jsonrpc: "2.0",
      id: 99,
      method: "tools/call",
      params: { name: TOOL.waitForJob, arguments: { jobId } },
    };
    const first = readSse(await postRaw(server.mcpUrl, JSON.stringify(wait), session.headers));
    const priming = await first.next();
    expect(priming).toMatchObject({ id: expect.any(String), data: "" });

    const resumed = await fetch(server.mcpUrl, {
      headers: { accept: "text/event-stream", ...session.headers, "last-event-id": priming.id! },
    });
    expect(resumed.status).toBe(200);
    await untilEnded(first);
    const answer = JSON.parse((await readSse(resumed).next()).data);
    expect(answer).toMatchObject({ id: 99, result: { structuredContent: { status: "completed" } } });
  });
});

describe("stateless requests", () => {
  it("answer a POST without a session id with plain JSON", async () => {
    const list = await postRaw(server.mcpUrl, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect(list.status).toBe(200);
    expect(list.headers.get("content-type")).toMatch(/^application\/json/);
    expect(list.headers.get("mcp-session-id")).toBeNull();
    expect((await list.json()).result.tools).toHaveLength(Object.keys({ ...TOOL, ...FILE_TOOL }).length);

    const calls = await Promise.all(
      [20, 40, 80].map(async (budget, i) => {
        const body = {
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: TOOL.suggestGifts, arguments: { occasion: "birthday", budget, count: 2 + i } },
        };
        return (await postRaw(server.mcpUrl, JSON.stringify(body))).json();
      }),
    );
    calls.forEach((reply, i) => {
      expect(reply.id).toBe(7);
      expect(reply.result.structuredContent.budget).toBe([20, 40, 80][i]);
      expect(reply.result.structuredContent.gifts).toHaveLength(2 + i);
    });
  });

  it("stream progress over SSE when the request carries a progressToken", async () => {
    const start = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: TOOL.startBulk, arguments: { csv: csvOf(3000), occasion: "holiday", budgetPerPerson: 25 } },
    };
    const { jobId } = StartBulkOutput.parse(
      (await (await postRaw(server.mcpUrl, JSON.stringify(start))).json()).result.structuredContent,
    );
    const wait = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: TOOL.waitForJob, arguments: { jobId }, _meta: { progressToken: "p-1" } },
    };
    const response = await postRaw(server.mcpUrl, JSON.stringify(wait));
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const sse = readSse(response);
    const progress: number[] = [];
    for (;;) {
      const message = JSON.parse((await sse.next()).data || "{}");
      if (message.method === "notifications/progress") {
        expect(message.params).toMatchObject({ progressToken: "p-1", total: 100, message: expect.any(String) });
        progress.push(message.params.progress);
      } else if (message.id === 2) {
        expect(message.result.structuredContent).toMatchObject({ jobId, status: "completed", done: true });
        break;
      }
    }
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    expect(new Set(progress).size).toBe(progress.length);
  });

  it("have no stream to open or session to end", async () => {
    const get = await fetch(server.mcpUrl, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    const del = await fetch(server.mcpUrl, { method: "DELETE" });
    expect(del.status).toBe(400);
    const unknown = await fetch(server.mcpUrl, {
      headers: { accept: "text/event-stream", "mcp-session-id": "no-such-session" },
    });
    expect(unknown.status).toBe(404);
  });
});

// What the session table decides (order, idle floor, caps, sweep) is tested on a fake clock in
// session-table.test.ts; these check that the HTTP side acts on it.
describe("idle sessions", () => {
  it("are closed by the sweep once nothing happened on them for the idle time", async () => {
    const quick = await startTestServer({ sessionIdleMs: 100 });
    try {
      const session = await openRawSession(quick.mcpUrl);
      const sessions = async () => (await (await fetch(`${quick.url}/healthz`)).json()).sessions as number;
      await vi.waitFor(async () => expect(await sessions()).toBe(0), { timeout: 5_000, interval: 25 });
      const after = await postRaw(
        quick.mcpUrl,
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        session.headers,
      );
      expect(after.status).toBe(404);
    } finally {
      await quick.close();
    }
  });
});

describe("at the session limit", () => {
  const initialize = (url: URL) =>
    postRaw(
      url,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
      }),
    );
  const ping = (url: URL, headers: Record<string, string>) =>
    postRaw(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), headers).then((r) => r.status);

  it("refuses a flood of newcomers with 503 and Retry-After while every session is in use", async () => {
    const full = await startTestServer({ maxSessions: 4, sessionMinIdleMs: 60_000 });
    try {
      const inUse = await Promise.all(Array.from({ length: 4 }, () => openRawSession(full.mcpUrl)));
      const flood = await Promise.all(Array.from({ length: 50 }, () => initialize(full.mcpUrl)));
      for (const response of flood) {
        expect(response.status).toBe(503);
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(response.headers.get("mcp-session-id")).toBeNull();
        const body = await response.json();
        expect(body.error.message).toMatch(/limit of 4 sessions, all in use\. Try again in \d+ s\./);
      }
      for (const session of inUse) expect(await ping(full.mcpUrl, session.headers)).toBe(200);
    } finally {
      await full.close();
    }
  });

  it("makes room by closing the session the table evicts, never one with an open stream", async () => {
    // no floor: any session not used this very millisecond may make room
    const full = await startTestServer({ maxSessions: 2, sessionMinIdleMs: 0 });
    try {
      const streaming = await openRawSession(full.mcpUrl);
      const stream = await fetch(full.mcpUrl, { headers: { accept: "text/event-stream", ...streaming.headers } });
      expect(stream.status).toBe(200);
      // `streaming` is the least recently used now, but it is listening
      const idle = await openRawSession(full.mcpUrl);
      const newcomer = await initialize(full.mcpUrl);
      expect(newcomer.status).toBe(200);
      expect(newcomer.headers.get("mcp-session-id")).toEqual(expect.any(String));
      await newcomer.body?.cancel();
      expect(await ping(full.mcpUrl, idle.headers)).toBe(404);
      expect(await ping(full.mcpUrl, streaming.headers)).toBe(200);
      await stream.body?.cancel();
    } finally {
      await full.close();
    }
  });

  it("caps one subject's sessions with 429 and Retry-After", async () => {
    const capped = await startTestServer({ maxSessionsPerSubject: 2, sessionMinIdleMs: 60_000 });
    try {
      const [first, second] = [await openRawSession(capped.mcpUrl), await openRawSession(capped.mcpUrl)];
      const refused = await initialize(capped.mcpUrl);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await refused.json()).error.message).toMatch(/already has 2 open\. End one you no longer use/);
      expect(await ping(capped.mcpUrl, first.headers)).toBe(200);
      expect(await ping(capped.mcpUrl, second.headers)).toBe(200);
    } finally {
      await capped.close();
    }
  });
});
