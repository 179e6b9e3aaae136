/**
 * The 2026-07-28 leg of /mcp through real clients: the official v2 client pinned to that
 * revision, the Tasks extension's client session, and framed raw requests for what a client would
 * not send. The 2025-11-25 suites run unchanged beside it on the same endpoint.
 */
import type { Client } from "@modelcontextprotocol/client";
import { StartBulkOutput, TOOL, URI } from "../../../shared/tools.js";
import { PACE_META_KEY } from "../../dev-pace.js";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import {
  connectModernClient,
  MODERN,
  postModern,
  replyOf,
  requestModern,
  TASKS,
  taskSession,
  withTasks,
} from "../../../test-kit/modern-client.js";
import {
  connectClient,
  postRaw,
  readSse,
  startTestServer,
  type TestServer,
} from "../../../test-kit/servers/test-server.js";

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer({ devPace: true });
  client = await connectModernClient(server.mcpUrl);
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const startArgs = (rows: number) => ({ csv: employeeCsv(rows, { seed: 7 }), occasion: "holiday", budgetPerPerson: 60 });
/** Starts a job slowed down enough to be caught running. */
const startPaced = async (rows = 200, paceMs = 50) =>
  requestModern(
    server.mcpUrl,
    "tools/call",
    { name: TOOL.startBulk, arguments: startArgs(rows) },
    { capabilities: withTasks, meta: { [PACE_META_KEY]: paceMs } },
  );

describe("discovery and the envelope", () => {
  it("answers server/discover with the versions, the Tasks extension, instructions and a public cache", async () => {
    const reply = await requestModern(server.mcpUrl, "server/discover");
    expect(reply.status).toBe(200);
    expect(reply.result).toMatchObject({
      resultType: "complete",
      supportedVersions: expect.arrayContaining([MODERN]),
      capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, extensions: { [TASKS]: {} } },
      instructions: expect.stringContaining("start_bulk_gift_analysis"),
      cacheScope: "public",
      ttlMs: expect.any(Number),
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "giftgenius" } },
    });
  });

  it("refuses an unsupported version with -32022 naming the supported ones", async () => {
    const response = await postModern(
      server.mcpUrl,
      "tools/list",
      {},
      {
        headers: { "mcp-protocol-version": "2099-01-01" },
        meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
      },
    );
    expect(response.status).toBe(400);
    const reply = await replyOf(response);
    expect(reply.error).toMatchObject({ code: -32022, data: { supported: expect.arrayContaining([MODERN]) } });
  });

  it("refuses standard headers that disagree with the body with 400 / -32020", async () => {
    const wrongMethod = await postModern(
      server.mcpUrl,
      "tools/list",
      {},
      { headers: { "mcp-method": "prompts/list" } },
    );
    expect(wrongMethod.status).toBe(400);
    expect((await replyOf(wrongMethod)).error?.code).toBe(-32020);
    const wrongName = await postModern(
      server.mcpUrl,
      "tools/call",
      { name: TOOL.suggestGifts, arguments: {} },
      { headers: { "mcp-name": "delete_job" } },
    );
    expect(wrongName.status).toBe(400);
    expect((await replyOf(wrongName)).error?.code).toBe(-32020);
  });

  it("refuses a request whose envelope lacks what is required with -32602", async () => {
    const response = await fetch(server.mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/list",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } },
      }),
    });
    expect((await replyOf(response)).error?.code).toBe(-32602);
  });

  it.each([
    ["resources/read", { uri: 5 }, "params.uri"],
    ["prompts/get", { name: 5 }, "params.name"],
    ["tools/call", { name: TOOL.suggestGifts, arguments: [1] }, "params.arguments"],
  ])(
    "answers %s whose params have the wrong type with -32602 naming the field, as 2025-11-25 does",
    async (method, params, field) => {
      const reply = await requestModern(server.mcpUrl, method, params);
      expect(reply.status).toBe(200);
      expect(reply.error?.code).toBe(-32602);
      expect(reply.error?.message).toContain(`Invalid params for ${method}: `);
      expect(reply.error?.message).toContain(field);
    },
  );
});

describe("through the official v2 client", () => {
  it("speaks 2026-07-28, lists the tools in the same order every time, and calls suggest_gifts", async () => {
    expect(client.getProtocolEra()).toBe("modern");
    const first = (await client.listTools()).tools.map((t) => t.name);
    const again = (await client.listTools()).tools.map((t) => t.name);
    expect(first).toContain(TOOL.startBulk);
    expect(again).toEqual(first);
    const result = await client.callTool({
      name: TOOL.suggestGifts,
      arguments: { name: "Mina", interests: ["coffee", "hiking"], budget: 80, occasion: "birthday" },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ gifts: expect.any(Array) });
  });

  it("answers 2025-11-25 requests without a session beside 2026-07-28 ones, each in its own era", async () => {
    const call = { name: TOOL.suggestGifts, arguments: { interests: ["tea"], budget: 50, occasion: "birthday" } };
    const legacy = async (id: number) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: call });
      return (await postRaw(server.mcpUrl, body)).json() as Promise<{ result?: { structuredContent?: unknown } }>;
    };
    // the same servers would serve both eras if they were pooled together: interleaved, in rounds
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          i % 2 ? requestModern(server.mcpUrl, "tools/call", call) : legacy(round * 16 + i),
        ),
      );
      for (const answer of answers)
        expect(answer.result?.structuredContent).toMatchObject({ gifts: expect.any(Array) });
    }
  });

  it("stamps results with the server's identity and caches the catalog publicly, a job's result privately", async () => {
    const list = await requestModern(server.mcpUrl, "tools/list");
    expect(list.result).toMatchObject({
      resultType: "complete",
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "giftgenius" } },
    });
    const catalog = await requestModern(server.mcpUrl, "resources/read", { uri: URI.catalog });
    expect(catalog.result).toMatchObject({ cacheScope: "public", contents: [{ uri: URI.catalog }] });
  });

  it("answers an unknown resource with -32602, as 2026-07-28 says (2025-11-25 keeps -32002)", async () => {
    const unknown = URI.jobResult("no-such-job");
    const modern = await requestModern(server.mcpUrl, "resources/read", { uri: unknown });
    expect(modern.error?.code).toBe(-32602);
    const legacy = await connectClient(server.mcpUrl);
    await expect(legacy.readResource({ uri: unknown })).rejects.toMatchObject({ code: -32002 });
    await legacy.close();
  });

  it("starts the bulk analysis as today, a jobId, for a client that does not declare Tasks", async () => {
    const result = await client.callTool({ name: TOOL.startBulk, arguments: startArgs(5) });
    expect(result.isError).toBeFalsy();
    expect(StartBulkOutput.parse(result.structuredContent).jobId).toEqual(expect.any(String));
  });

  it("streams wait_for_job's progress on the request's own stream", async () => {
    const started = await client.callTool({
      name: TOOL.startBulk,
      arguments: startArgs(300),
      _meta: { [PACE_META_KEY]: 5 },
    });
    const { jobId } = StartBulkOutput.parse(started.structuredContent);
    const seen: number[] = [];
    const waited = await client.callTool(
      { name: TOOL.waitForJob, arguments: { jobId, timeoutMs: 60_000 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(waited.structuredContent).toMatchObject({ done: true, status: "completed" });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe("the bulk analysis as a task", () => {
  it("runs through the Tasks client session to a completed result with a link to the pages", async () => {
    const session = taskSession(client, server.mcpUrl);
    try {
      const execution = await session.callTool(TOOL.startBulk, startArgs(40));
      expect(execution.kind).toBe("task");
      const { outcome } = await execution.settle();
      if (outcome.status === "failed") throw outcome.error;
      expect(outcome.status).toBe("completed");
      if (outcome.status !== "completed") return;
      const result = outcome.result as {
        content: { type: string; uri?: string }[];
        structuredContent: Record<string, unknown>;
        isError?: boolean;
      };
      expect(result.isError).toBeFalsy();
      const jobId = execution.handle!.taskId;
      expect(result.content).toContainEqual(
        expect.objectContaining({ type: "resource_link", uri: URI.jobResult(jobId) }),
      );
      expect(result.structuredContent).toMatchObject({ jobId, status: "completed", resultCount: 40 });
    } finally {
      await session.close();
    }
  });
});

describe("tasks/get and tasks/cancel", () => {
  it("answers tasks/get with a status line a person can read, the poll interval and the retention", async () => {
    const created = await startPaced();
    expect(created.result).toMatchObject({
      resultType: "task",
      status: "working",
      pollIntervalMs: expect.any(Number),
      ttlMs: 24 * 60 * 60 * 1000,
    });
    const taskId = created.result!.taskId as string;
    let task: Record<string, unknown> | undefined;
    for (let i = 0; i < 200; i++) {
      task = (await requestModern(server.mcpUrl, "tasks/get", { taskId }, { capabilities: withTasks })).result;
      if (typeof task?.statusMessage === "string" && /of \d/.test(task.statusMessage)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(task).toMatchObject({
      resultType: "complete",
      taskId,
      status: "working",
      statusMessage: expect.stringMatching(/: .* of /),
    });
    await requestModern(server.mcpUrl, "tasks/cancel", { taskId }, { capabilities: withTasks });
  });

  it("cancels the job with tasks/cancel", async () => {
    const created = await startPaced(2000, 100);
    const taskId = created.result!.taskId as string;
    const cancel = await requestModern(server.mcpUrl, "tasks/cancel", { taskId }, { capabilities: withTasks });
    expect(cancel.result).toMatchObject({ resultType: "complete" });
    const task = await requestModern(server.mcpUrl, "tasks/get", { taskId }, { capabilities: withTasks });
    expect(task.result).toMatchObject({ status: "cancelled" });
  });

  it("checks Mcp-Name, the capability and the task id", async () => {
    const created = await startPaced(20, 1);
    const taskId = created.result!.taskId as string;
    const wrongName = await postModern(
      server.mcpUrl,
      "tasks/get",
      { taskId },
      { capabilities: withTasks, headers: { "mcp-name": "another" } },
    );
    expect(wrongName.status).toBe(400);
    expect((await replyOf(wrongName)).error?.code).toBe(-32020);
    const undeclared = await requestModern(server.mcpUrl, "tasks/get", { taskId });
    expect(undeclared.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    const unknown = await requestModern(
      server.mcpUrl,
      "tasks/get",
      { taskId: "no-such-task" },
      { capabilities: withTasks },
    );
    expect(unknown.error?.code).toBe(-32602);
  });
});

describe("subscriptions/listen", () => {
  it("acknowledges first, then tells a task's changes and its result's updates until the end", async () => {
    const created = await startPaced(300, 5);
    const taskId = created.result!.taskId as string;
    const response = await postModern(
      server.mcpUrl,
      "subscriptions/listen",
      {
        notifications: {
          taskIds: [taskId],
          resourceSubscriptions: [URI.jobResult(taskId), URI.jobResult("not-mine")],
          toolsListChanged: true,
        },
      },
      { capabilities: withTasks },
    );
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = readSse(response);
    const ack = JSON.parse((await stream.next()).data);
    expect(ack).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { taskIds: [taskId], resourceSubscriptions: [URI.jobResult(taskId)] } },
    });
    expect(ack.params.notifications.toolsListChanged).toBeUndefined();
    const methods = new Set<string>();
    let last: Record<string, unknown> | undefined;
    while (last?.status !== "completed" || !methods.has("notifications/resources/updated")) {
      const message = JSON.parse((await stream.next()).data);
      methods.add(message.method);
      expect(message.params._meta["io.modelcontextprotocol/subscriptionId"]).toBe(
        ack.params._meta["io.modelcontextprotocol/subscriptionId"],
      );
      if (message.method === "notifications/tasks") last = message.params;
    }
    expect([...methods].sort()).toEqual(["notifications/resources/updated", "notifications/tasks"]);
    expect(last).toMatchObject({ taskId, status: "completed", result: { structuredContent: { resultCount: 300 } } });
    await stream.close();
  });

  it("asks for the Tasks capability before it tells tasks", async () => {
    const reply = await requestModern(server.mcpUrl, "subscriptions/listen", { notifications: { taskIds: ["x"] } });
    expect(reply.error?.code).toBe(-32021);
  });
});
