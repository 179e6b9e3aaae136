/**
 * Whose task is whose on the 2026-07-28 leg, with two real signed-in subjects: Bob holding Alice's
 * task id gets from tasks/get, tasks/cancel and tasks/update exactly what an unknown id gets, his
 * cancel leaves her task running, and his listen stream honours neither her task nor her result
 * and carries nothing of her job, while hers carries both. Without a token, a request of this era
 * is challenged as a 2025-11-25 one is.
 */
import { TOOL, URI } from "../../shared/tools.js";
import { PACE_META_KEY } from "../dev-pace.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { postModern, requestModern, withTasks } from "../../test-kit/modern-client.js";
import {
  postInitialize,
  readSse,
  startTestServer,
  type SseReader,
  type TestServer,
} from "../../test-kit/servers/test-server.js";
import { subjectFor } from "./subject.js";
import { startTestProvider, type TestProvider } from "../../test-kit/servers/oidc-provider.js";

const PUBLIC_URL = "https://gifts.example.test";
const RESOURCE = `${PUBLIC_URL}/mcp`;
/** A made-up id of the job ids' shape: what "no such task" looks like. */
const MISSING = `job_${"x".repeat(22)}`;

let provider: TestProvider;
let server: TestServer;
const tokens = { alice: "", bob: "" };
type Who = keyof typeof tokens;

beforeAll(async () => {
  provider = await startTestProvider();
  tokens.alice = await provider.signIn("alice", { resource: RESOURCE });
  tokens.bob = await provider.signIn("bob", { resource: RESOURCE });
  server = await startTestServer({
    auth: { issuer: provider.issuer, publicUrl: PUBLIC_URL, scopes: ["gifts"] },
    devPace: true,
  });
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

/** A request of `who`'s, framed for 2026-07-28 by a client that speaks the Tasks extension. */
const asUser = (who: Who) => ({ capabilities: withTasks, headers: { authorization: `Bearer ${tokens[who]}` } });

/** Starts a bulk analysis as `who`, answered as a task, paced to run for a while. */
async function startTask(who: Who, rows: number, paceMs: number): Promise<string> {
  const reply = await requestModern(
    server.mcpUrl,
    "tools/call",
    {
      name: TOOL.startBulk,
      arguments: { csv: employeeCsv(rows, { seed: 3 }), occasion: "farewell", budgetPerPerson: 40 },
    },
    { ...asUser(who), meta: { [PACE_META_KEY]: paceMs } },
  );
  expect(reply.result, JSON.stringify(reply.error)).toMatchObject({ resultType: "task", status: "working" });
  return reply.result!.taskId as string;
}

/** What a task request answers, the HTTP status and the JSON-RPC error, with `taskId` written as <task>. */
async function answerTo(method: string, taskId: string, who: Who): Promise<string> {
  const { status, error, result } = await requestModern(server.mcpUrl, method, { taskId }, asUser(who));
  return JSON.stringify({ status, error, result }).split(taskId).join("<task>");
}

/** Opens a listen stream of `who`'s and returns it after its acknowledgement. */
async function listen(who: Who, taskIds: string[], resourceSubscriptions: string[]) {
  const response = await postModern(
    server.mcpUrl,
    "subscriptions/listen",
    { notifications: { taskIds, resourceSubscriptions } },
    asUser(who),
  );
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const stream = readSse(response);
  const ack = JSON.parse((await stream.next()).data);
  expect(ack.method).toBe("notifications/subscriptions/acknowledged");
  return { stream, honoured: ack.params.notifications as Record<string, unknown> };
}

type Message = { method?: string; params?: { taskId?: string; status?: string; uri?: string }; result?: unknown };

/** Reads `stream` until `done` says so, and returns every message read. */
async function readUntil(stream: SseReader, done: (seen: Message[]) => boolean): Promise<Message[]> {
  const seen: Message[] = [];
  while (!done(seen)) seen.push(JSON.parse((await stream.next()).data) as Message);
  return seen;
}

const taskStatus = (seen: Message[], taskId: string) =>
  seen.filter((m) => m.method === "notifications/tasks" && m.params?.taskId === taskId).at(-1)?.params?.status;

describe("tasks of two signed-in subjects on the 2026-07-28 leg", () => {
  it("Bob gets for Alice's task id what an unknown id gets, on every task method, and her task runs on", async () => {
    const taskId = await startTask("alice", 2000, 100);
    try {
      for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
        const foreign = await answerTo(method, taskId, "bob");
        const unknown = await answerTo(method, MISSING, "bob");
        expect(foreign, method).toBe(unknown);
        expect(JSON.parse(foreign), method).toMatchObject({ status: 200, error: { code: -32602 } });
      }
      const own = await requestModern(server.mcpUrl, "tasks/get", { taskId }, asUser("alice"));
      expect(own.result).toMatchObject({ taskId, status: "working" });
      expect((await requestModern(server.mcpUrl, "tasks/update", { taskId }, asUser("alice"))).result).toBeDefined();
      // Bob's cancel wrote nothing, and the job goes on: it makes progress after it, and no cancel
      const alice = { subject: subjectFor(provider.issuer, "alice") };
      const before = await server.jobs.getEvents({ jobId: taskId, afterSeq: 0, limit: 1000, waitMs: 0 }, alice);
      if (!before.ok) throw new Error(before.error.message);
      const after = await server.jobs.getEvents(
        { jobId: taskId, afterSeq: before.value.nextSeq, limit: 1000, waitMs: 20_000 },
        alice,
      );
      if (!after.ok) throw new Error(after.error.message);
      expect(after.value.events.map((e) => e.type)).toContain("job.progress");
      const types = [...before.value.events, ...after.value.events].map((e) => e.type);
      expect(types).not.toContain("job.canceled");
    } finally {
      await requestModern(server.mcpUrl, "tasks/cancel", { taskId }, asUser("alice"));
    }
  });

  it("Bob's listen naming Alice's task and result honours neither and carries nothing of hers; Alice's carries both", async () => {
    const aliceTask = await startTask("alice", 300, 5);
    // Bob's own task keeps his stream open for as long as Alice's job runs
    const bobTask = await startTask("bob", 2000, 100);
    const bob = await listen("bob", [aliceTask, bobTask], [URI.jobResult(aliceTask), URI.jobResult(bobTask)]);
    try {
      expect(bob.honoured).toEqual({ taskIds: [bobTask], resourceSubscriptions: [URI.jobResult(bobTask)] });

      const alice = await listen("alice", [aliceTask], [URI.jobResult(aliceTask)]);
      expect(alice.honoured).toEqual({ taskIds: [aliceTask], resourceSubscriptions: [URI.jobResult(aliceTask)] });
      const hers = await readUntil(
        alice.stream,
        (seen) =>
          taskStatus(seen, aliceTask) === "completed" &&
          seen.some((m) => m.method === "notifications/resources/updated"),
      );
      await alice.stream.close();
      expect(hers.filter((m) => m.params?.uri !== undefined).map((m) => m.params?.uri)).toContain(
        URI.jobResult(aliceTask),
      );

      // Alice's job has ended; Bob's cancel of his own is the last thing his stream will tell
      await requestModern(server.mcpUrl, "tasks/cancel", { taskId: bobTask }, asUser("bob"));
      const his = await readUntil(bob.stream, (seen) => taskStatus(seen, bobTask) === "cancelled");
      expect(JSON.stringify(his)).not.toContain(aliceTask);
      for (const message of his) expect(message.params?.taskId ?? bobTask).toBe(bobTask);
    } finally {
      await bob.stream.close();
      await requestModern(server.mcpUrl, "tasks/cancel", { taskId: bobTask }, asUser("bob"));
    }
  });

  it("a listen of Bob's that names only Alice's task and result is acknowledged with nothing and ends", async () => {
    const aliceTask = await startTask("alice", 2000, 100);
    try {
      const response = await postModern(
        server.mcpUrl,
        "subscriptions/listen",
        { notifications: { taskIds: [aliceTask], resourceSubscriptions: [URI.jobResult(aliceTask)] } },
        asUser("bob"),
      );
      const text = await response.text();
      const messages = text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)) as Message & { params?: { notifications?: unknown } });
      expect(messages.map((m) => m.method ?? "result")).toEqual(["notifications/subscriptions/acknowledged", "result"]);
      expect(messages[0].params?.notifications).toEqual({});
      expect(messages[1].result).toMatchObject({ resultType: "complete" });
      expect(text).not.toContain(aliceTask);
    } finally {
      await requestModern(server.mcpUrl, "tasks/cancel", { taskId: aliceTask }, asUser("alice"));
    }
  });
});

const initialize = (headers: Record<string, string>) => postInitialize(server.mcpUrl, headers);

describe("a 2026-07-28 request that is not signed in as it must be", () => {
  it("without a token gets 401 with the challenge a 2025-11-25 request gets", async () => {
    const legacy = await initialize({});
    expect(legacy.status).toBe(401);
    const challenge = legacy.headers.get("www-authenticate");
    expect(challenge).toContain(`resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource"`);
    const legacyBody = await legacy.json();

    for (const [method, params] of [
      ["tools/list", {}],
      ["tasks/get", { taskId: MISSING }],
      ["subscriptions/listen", { notifications: { taskIds: [MISSING] } }],
    ] as const) {
      const response = await postModern(server.mcpUrl, method, params, { capabilities: withTasks });
      expect(response.status, method).toBe(401);
      expect(response.headers.get("www-authenticate"), method).toBe(challenge);
      expect(await response.json(), method).toEqual(legacyBody);
    }
  });

  it("with a token that lacks the scope gets 403 insufficient_scope, as a 2025-11-25 request does", async () => {
    const token = await provider.signIn("alice", { resource: RESOURCE, scope: "extra" });
    const authorization = `Bearer ${token}`;
    const legacy = await initialize({ authorization });
    expect(legacy.status).toBe(403);
    const challenge = legacy.headers.get("www-authenticate");
    expect(challenge).toContain('error="insufficient_scope"');
    const response = await postModern(server.mcpUrl, "tools/list", {}, { headers: { authorization } });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(challenge);
    expect(await response.json()).toEqual(await legacy.json());
  });
});
