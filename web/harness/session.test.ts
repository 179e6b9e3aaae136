import { readFileSync } from "node:fs";
import { applyJobEvents, createJobFold } from "../../shared/job-reducer.js";
import type { JobEvent } from "../../shared/job-events.js";
import { parseJobEvents } from "../../test-kit/job-events.js";
import { GetJobEventsOutput, StartBulkOutput, SuggestGiftsOutput, TOOL } from "../../shared/tools.js";
import { PACE_META_KEY } from "./session.js";
import { startTestServer, type TestServer } from "../../test-kit/servers/test-server.js";
import { DroppedReplyError } from "./faults/faulty-call.js";
import { pageMemory } from "./memory.js";
import { createHarnessSession, type HarnessSession } from "./session.js";
import { createHarnessStore, type HarnessStore } from "./store.js";

const SAMPLE = readFileSync(new URL("./sample-employees.csv", import.meta.url), "utf8");

let server: TestServer;
let store: HarnessStore;
let session: HarnessSession;

beforeAll(async () => {
  server = await startTestServer();
  store = createHarnessStore();
  session = createHarnessSession(store, server.mcpUrl);
  await session.connect();
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

const methods = () => store.getState().log.entries.map((e) => `${e.dir} ${e.kind} ${e.method}`);

describe("the harness session against the real server", () => {
  it("connects and logs the handshake, each reply paired with its request", () => {
    expect(store.getState().connection).toMatchObject({ status: "ready" });
    expect(methods().slice(0, 3)).toEqual([
      "out request initialize",
      "in result initialize",
      "out notification notifications/initialized",
    ]);
    const reply = store.getState().log.entries[1];
    expect(reply.pair).toBe(store.getState().log.entries[0].n);
    expect(methods()).toContain("in result resources/list");
  });

  it("mounts the widget resource for a suggest_gifts result", async () => {
    await session.runTool(TOOL.suggestGifts, { occasion: "birthday", budget: 40, recipient: "loves tea" });
    const mount = store.getState().mount!;
    expect(store.getState().problem).toBeNull();
    expect(mount.widgetUri).toMatch(/^ui:\/\//);
    expect(mount.html).toMatch(/<html/i);
    expect(mount.toolInput).toEqual({ occasion: "birthday", budget: 40, recipient: "loves tea" });
    expect(SuggestGiftsOutput.parse(mount.toolOutput).gifts.length).toBeGreaterThan(0);
  });

  it("follows a bulk job through every fault to the server's own view", async () => {
    await session.runTool(TOOL.startBulk, { occasion: "farewell", budgetPerPerson: 60, csv: SAMPLE });
    const { jobId } = StartBulkOutput.parse(store.getState().mount!.toolOutput);
    store.getState().setFaults({ duplicates: 3, shuffle: true, dropNext: true });

    let view = createJobFold(jobId);
    let afterSeq = 0;
    let dropped = 0;
    const seen: JobEvent[] = [];
    for (;;) {
      let reply;
      try {
        reply = await session.widgetCallTool(TOOL.getJobEvents, { jobId, afterSeq, waitMs: 2000 });
      } catch (error) {
        expect(error).toBeInstanceOf(DroppedReplyError);
        dropped++;
        continue;
      }
      const page = GetJobEventsOutput.parse(reply.structuredContent);
      const { events } = parseJobEvents(page.events);
      seen.push(...events);
      view = applyJobEvents(view, events);
      afterSeq = page.nextSeq;
      if (page.done) {
        expect(view.status).toBe(page.status);
        break;
      }
    }
    expect(dropped).toBe(1);
    expect(store.getState().faults.dropNext).toBe(false);
    expect(view.status).toBe("completed");
    // Duplicates ×3 reached the widget: every distinct event came (at least) three times.
    expect(seen.length).toBeGreaterThanOrEqual(3 * new Set(seen.map((e) => e.eventId)).size);
    expect(methods()).toContain("host host fault/drop");
  });

  it("logs job notifications from the session's stream", async () => {
    await vi.waitFor(() => expect(methods()).toContain("in notification notifications/job/completed"), {
      timeout: 10_000,
    });
  });

  it("explains a tool's isError result beside the controls, and still mounts the widget", async () => {
    await session.runTool(TOOL.startBulk, { occasion: "farewell", budgetPerPerson: 60, csv: "nothing useful" });
    expect(store.getState().mount!.isError).toBe(true);
    expect(store.getState().problem).toMatch(/\w/);
    const reply = store.getState().log.entries.findLast((e) => e.tool === TOOL.startBulk && e.kind === "result");
    expect(reply?.toolError).toBe(true);
  });
});

describe("the harness session when the server forgets its session", () => {
  it("opens a new session by itself on 404 and sends the call again, once however many calls found it gone", async () => {
    const before = store.getState().connection;
    if (before.status !== "ready" || before.sessionId === null) throw new Error("no session to lose");
    // as a server restart would: the server no longer knows the session
    const ended = await fetch(server.mcpUrl, {
      method: "DELETE",
      headers: { "mcp-session-id": before.sessionId, "mcp-protocol-version": "2025-11-25" },
    });
    expect(ended.ok).toBe(true);
    const args = { occasion: "birthday", budget: 40, recipient: "loves tea" };
    const replies = await Promise.all([1, 2, 3].map(() => session.widgetCallTool(TOOL.suggestGifts, args)));
    for (const reply of replies)
      expect(SuggestGiftsOutput.parse(reply.structuredContent).gifts.length).toBeGreaterThan(0);
    const after = store.getState().connection;
    expect(after).toMatchObject({ status: "ready" });
    expect(after).not.toMatchObject({ sessionId: before.sessionId });
    expect(store.getState().log.entries.filter((e) => e.method === "session/lost")).toHaveLength(1);
  });
});

describe("the harness session in 2026-07-28", () => {
  let modern: HarnessSession;
  let modernStore: HarnessStore;
  beforeAll(async () => {
    modernStore = createHarnessStore();
    modernStore.getState().setProtocol("2026-07-28");
    modern = createHarnessSession(modernStore, server.mcpUrl);
    await modern.connect();
  });
  afterAll(() => modern?.close());
  const entries = () => modernStore.getState().log.entries;

  it("connects with server/discover, no session, every request carrying the envelope and the standard headers", () => {
    expect(modernStore.getState().connection).toMatchObject({
      status: "ready",
      protocol: "2026-07-28",
      sessionId: null,
    });
    const requests = entries().filter((e) => e.kind === "request");
    expect(requests[0]).toMatchObject({ method: "server/discover" });
    expect(requests.map((e) => e.method)).not.toContain("initialize");
    for (const request of requests) {
      expect(request.message).toMatchObject({
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "giftgenius-harness" },
          },
        },
      });
      expect(request.headers).toMatchObject({ "mcp-protocol-version": "2026-07-28", "mcp-method": request.method });
    }
  });

  it("follows the job it started on a listen stream, acknowledged first, and the widget's calls reach the server", async () => {
    await modern.runTool(TOOL.startBulk, { occasion: "farewell", budgetPerPerson: 60, csv: SAMPLE });
    const { jobId, resultUri } = StartBulkOutput.parse(modernStore.getState().mount!.toolOutput);
    const start = entries().find((e) => e.kind === "request" && e.tool === TOOL.startBulk);
    expect(start?.headers).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": TOOL.startBulk,
    });
    const listen = entries().find((e) => e.method === "subscriptions/listen");
    expect(listen?.message).toMatchObject({ params: { notifications: { resourceSubscriptions: [resultUri] } } });

    for (let afterSeq = 0, done = false; !done;) {
      const reply = await modern.widgetCallTool(TOOL.getJobEvents, { jobId, afterSeq, waitMs: 2000 });
      const page = GetJobEventsOutput.parse(reply.structuredContent);
      afterSeq = page.nextSeq;
      done = page.done;
    }
    await vi.waitFor(() => expect(entries().some((e) => e.method === "notifications/resources/updated")).toBe(true));
    const onStream = entries().filter((e) => e.dir === "in" && e.kind === "notification");
    expect(onStream[0]).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      message: { params: { notifications: { resourceSubscriptions: [resultUri] } } },
    });
    // no session, so no GET stream: job events come only as the widget's get_job_events replies
    expect(entries().some((e) => e.method.startsWith("notifications/job/"))).toBe(false);
  });

  it("switches back to 2025-11-25 and on again, each time in the chosen revision", async () => {
    await modern.setProtocol("2025-11-25");
    expect(modernStore.getState().connection).toMatchObject({ status: "ready", protocol: "2025-11-25" });
    expect(modernStore.getState().connection).not.toMatchObject({ sessionId: null });
    expect(entries().findLast((e) => e.kind === "request" && e.method === "initialize")).toBeDefined();
    await modern.setProtocol("2026-07-28");
    expect(modernStore.getState().connection).toMatchObject({
      status: "ready",
      protocol: "2026-07-28",
      sessionId: null,
    });
  });
});

describe("the harness session's recent jobs and memory", () => {
  const backing = pageMemory();
  let memStore: HarnessStore;
  let mem: HarnessSession;
  beforeAll(async () => {
    memStore = createHarnessStore(Date.now, backing);
    mem = createHarnessSession(memStore, server.mcpUrl);
    await mem.connect();
  });
  afterAll(() => mem?.close());
  const args = { occasion: "farewell", budgetPerPerson: 60, csv: SAMPLE };
  const starts = () => memStore.getState().log.entries.filter((e) => e.kind === "request" && e.tool === TOOL.startBulk);

  it("adds each start that names a job, the widget's own too, which goes at the pace of the call it shows", async () => {
    await mem.runTool(TOOL.startBulk, args, 20);
    const first = StartBulkOutput.parse(memStore.getState().mount!.toolOutput).jobId;
    // "Try again" in the widget: the same arguments, through the host
    const again = StartBulkOutput.parse((await mem.widgetCallTool(TOOL.startBulk, args)).structuredContent).jobId;
    expect(starts().map((e) => e.message)).toMatchObject([
      { params: { _meta: { [PACE_META_KEY]: 20 } } },
      { params: { _meta: { [PACE_META_KEY]: 20 } } },
    ]);
    // asked for a file: no job yet, nothing to add
    await mem.runTool(TOOL.startBulk, { occasion: "farewell", budgetPerPerson: 60 });
    expect(memStore.getState().recentJobs).toMatchObject([
      { jobId: again, occasion: "farewell", rows: 25, paceMs: 20, hostKind: "openai", protocol: "2025-11-25" },
      { jobId: first, rows: 25, paceMs: 20, input: args },
    ]);
  });

  it("opens a recent job as its start would show it; one the server no longer knows opens on the widget's error", async () => {
    const [latest, older] = memStore.getState().recentJobs;
    await mem.reopenJob(older);
    const { mount, problem } = memStore.getState();
    expect(problem).toBeNull();
    expect(mount).toMatchObject({ toolName: TOOL.startBulk, toolInput: args, isError: false, paceMs: 20 });
    expect(StartBulkOutput.parse(mount!.toolOutput)).toMatchObject({
      jobId: older.jobId,
      resultUri: expect.any(String),
    });
    expect(StartBulkOutput.parse(mount!.toolOutput).stages.length).toBeGreaterThan(0);

    // as after a server restart with another store
    expect((await server.jobs.delete({ jobId: latest.jobId }, { subject: "anonymous" })).ok).toBe(true);
    await mem.reopenJob(latest);
    expect(memStore.getState().mount).toMatchObject({
      isError: true,
      toolOutput: { error: { code: "unknown_job" } },
    });
    expect(memStore.getState().problem).toMatch(/No job/);
    expect(memStore.getState().connection).toMatchObject({ status: "ready" });
  });

  it("after a reload, connects and shows again the call that was on screen, with its widgetState", async () => {
    await mem.runTool(TOOL.startBulk, args);
    const before = memStore.getState().mount!;
    memStore.getState().setWidgetState({ jobId: "followed" });
    const reloaded = createHarnessStore(Date.now, backing);
    expect(reloaded.getState().mount).toBeNull();
    const again = createHarnessSession(reloaded, server.mcpUrl);
    try {
      await again.connect();
      expect(reloaded.getState().mount).toMatchObject({
        toolOutput: before.toolOutput,
        toolInput: args,
        at: before.at,
        html: before.html,
      });
      expect(reloaded.getState().widgetState).toEqual({ jobId: "followed" });
      expect(reloaded.getState().recentJobs.map((j) => j.jobId)).toEqual(
        memStore.getState().recentJobs.map((j) => j.jobId),
      );
    } finally {
      await again.close();
    }
  });
});
