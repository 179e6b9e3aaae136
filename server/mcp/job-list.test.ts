/**
 * Finding and reopening jobs through the official clients of both eras, as two real signed-in
 * subjects: list_jobs pages through 25 jobs newest first (still there a day later, gone once they
 * expire) and never lists the other subject's; show_job renders the widget with its template and a
 * fresh view id, in the start's shape, and finds nobody else's job; claim_job_follow_up is true for
 * one call of many made at once, false while the job runs; and every result that renders the
 * widget carries a fresh view id.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Client as ModernClient } from "@modelcontextprotocol/client";
import {
  ClaimFollowUpOutput,
  ListJobsOutput,
  ShowJobOutput,
  TOOL,
  VIEW_ID_META_KEY,
  type JobSummary,
} from "../../shared/tools.js";
import { PACE_META_KEY, pauseAtPace } from "../dev-pace.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { connectModernClient } from "../../test-kit/modern-client.js";
import { startTestProvider, type TestProvider } from "../../test-kit/servers/oidc-provider.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { startJob, startTestServer, toolError, toolText, type TestServer } from "../../test-kit/servers/test-server.js";

const PUBLIC_URL = "https://gifts.example.test";
const HOUR = 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A made-up id of the job ids' shape: what "no such job" looks like. */
const MISSING = `job_${"x".repeat(22)}`;

let provider: TestProvider;
let server: TestServer;
/** How far the server's clock runs ahead of the real one: a day later, without waiting a day. */
let ahead = 0;
const tokens = { alice: "", bob: "", carol: "" };
type Who = keyof typeof tokens;
const clients: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  provider = await startTestProvider();
  tokens.alice = await provider.signIn("alice", { resource: `${PUBLIC_URL}/mcp` });
  tokens.bob = await provider.signIn("bob", { resource: `${PUBLIC_URL}/mcp` });
  tokens.carol = await provider.signIn("carol", { resource: `${PUBLIC_URL}/mcp` });
  const jobs = createJobService({
    store: createMemoryStore(),
    match: matchGifts,
    now: () => Date.now() + ahead,
    limits: { maxUnfinishedPerSubject: 50 },
    beforeSlice: pauseAtPace,
  });
  server = await startTestServer({
    auth: { issuer: provider.issuer, publicUrl: PUBLIC_URL, scopes: ["gifts"] },
    jobs,
    devPace: true,
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.close();
  await provider?.close();
});

const bearer = (who: Who) => ({ authorization: `Bearer ${tokens[who]}` });

/** The 2025-11-25 client, signed in as `who`. */
async function legacyAs(who: Who): Promise<Client> {
  const client = new Client({ name: `test-${who}`, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(server.mcpUrl, { requestInit: { headers: bearer(who) } }));
  clients.push(client);
  return client;
}

/** The 2026-07-28 client, signed in as `who`. */
async function modernAs(who: Who): Promise<ModernClient> {
  const client = await connectModernClient(server.mcpUrl, bearer(who));
  clients.push(client);
  return client;
}

type AnyClient = Client | ModernClient;

/** A tool call through either client, its reply parsed as a `CallToolResult`. */
async function call(
  client: AnyClient,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<CallToolResult> {
  const params = { name, arguments: args, ...(meta && { _meta: meta }) };
  return CallToolResultSchema.parse(await client.callTool(params));
}

const csv = (rows: number) => employeeCsv(rows, { seed: rows });
const startArgs = (rows: number) => ({ csv: csv(rows), occasion: "farewell", budgetPerPerson: 40 });

/** Every page of `client`'s list, `limit` at a time: the pages' jobs, and the texts. */
async function listAll(client: AnyClient, limit: number) {
  const pages: JobSummary[][] = [];
  const texts: string[] = [];
  for (let cursor: string | null | undefined; cursor !== null;) {
    const result = await call(client, TOOL.listJobs, { limit, ...(cursor && { cursor }) });
    expect(result.isError, toolText(result)).toBeFalsy();
    const page = ListJobsOutput.parse(result.structuredContent);
    pages.push(page.jobs);
    texts.push(toolText(result));
    cursor = page.nextCursor;
  }
  return { pages, texts };
}

describe("list_jobs", () => {
  const aliceJobs: string[] = [];
  const bobJobs: string[] = [];

  beforeAll(async () => {
    const [alice, bob] = [await legacyAs("alice"), await legacyAs("bob")];
    for (let i = 0; i < 25; i++) {
      aliceJobs.push((await startJob(alice, startArgs(3 + (i % 4)))).jobId);
      if (i % 10 === 0) bobJobs.push((await startJob(bob, startArgs(3))).jobId);
    }
    for (const jobId of aliceJobs) await call(alice, TOOL.waitForJob, { jobId, timeoutMs: 20_000 });
    for (const jobId of bobJobs) await call(bob, TOOL.waitForJob, { jobId, timeoutMs: 20_000 });
  });

  it("pages through the caller's 25 jobs newest first, each once, and none of another subject's", async () => {
    const alice = await legacyAs("alice");
    const { pages, texts } = await listAll(alice, 10);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    const listed = pages.flat();
    expect(new Set(listed.map((j) => j.jobId))).toEqual(new Set(aliceJobs));
    // newest first: creation time, then job id, both descending
    for (let i = 1; i < listed.length; i++) {
      const [a, b] = [listed[i - 1], listed[i]];
      expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.jobId > b.jobId)).toBe(true);
    }
    // the last started is among the newest (several may start in the same millisecond)
    const last = listed.find((j) => j.jobId === aliceJobs[24]);
    expect(listed.slice(0, 3)).toContainEqual(last);
    expect(last).toEqual({
      jobId: aliceJobs[24],
      title: "farewell gifts from a list of 3 rows",
      status: "completed",
      percentage: 100,
      stage: null,
      // as the last progress event said
      processed: expect.any(Number),
      total: 3,
      resultCount: 3,
      currency: "USD",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      endedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // one line per job with its id, and how to bring its card back
    for (const [i, page] of pages.entries()) {
      for (const job of page) expect(texts[i]).toContain(job.jobId);
      expect(texts[i]).toContain(TOOL.showJob);
    }
    // never a name from a staff list
    expect(JSON.stringify({ pages, texts })).not.toMatch(/Lovelace|Hopper|Turing|Ada |Grace |Alan /);
    const bob = await legacyAs("bob");
    expect((await listAll(bob, 50)).pages.flat().map((j) => j.jobId)).toEqual([...bobJobs].reverse());
  });

  it("says how many people each result holds, one person as such", async () => {
    const carol = await legacyAs("carol");
    const { jobId } = await startJob(carol, {
      csv: "name,interests\nJo,golf",
      occasion: "farewell",
      budgetPerPerson: 40,
    });
    await call(carol, TOOL.waitForJob, { jobId, timeoutMs: 20_000 });
    expect((await listAll(carol, 10)).texts[0]).toContain(
      `- ${jobId} "farewell gifts from a list of 1 row": completed, 1 person in the result;`,
    );
    expect((await listAll(await legacyAs("alice"), 50)).texts[0]).toContain("completed, 3 people in the result;");
  });

  it("lists the same through the 2026-07-28 client", async () => {
    const [legacy, modern] = [await legacyAs("alice"), await modernAs("alice")];
    const first = ListJobsOutput.parse((await call(legacy, TOOL.listJobs, { limit: 7 })).structuredContent);
    const again = ListJobsOutput.parse((await call(modern, TOOL.listJobs, { limit: 7 })).structuredContent);
    expect(again).toEqual(first);
    const all = (await listAll(legacy, 50)).pages.flat();
    const next = await call(modern, TOOL.listJobs, { limit: 7, cursor: first.nextCursor });
    expect(ListJobsOutput.parse(next.structuredContent).jobs).toEqual(all.slice(7, 14));
  });

  it("refuses a cursor it did not give", async () => {
    const alice = await legacyAs("alice");
    const refused = await call(alice, TOOL.listJobs, { cursor: "not-a-cursor" });
    expect(toolError(refused)).toMatchObject({ code: "invalid_arguments" });
    // encoded as a cursor is, but not a position: one more field, another shape, a fraction, no id
    for (const position of [[1, "job_x", 3], { createdAt: 1, jobId: "job_x" }, [1.5, "job_x"], [1, ""]]) {
      const cursor = Buffer.from(JSON.stringify(position)).toString("base64url");
      expect(toolError(await call(alice, TOOL.listJobs, { cursor }))).toMatchObject({ code: "invalid_arguments" });
    }
  });

  it("still lists the jobs a day later, and none once they have expired", async () => {
    const alice = await legacyAs("alice");
    try {
      ahead = 23 * HOUR;
      expect((await listAll(alice, 50)).pages.flat()).toHaveLength(25);
      ahead = 25 * HOUR;
      const { pages, texts } = await listAll(alice, 50);
      expect(pages.flat()).toEqual([]);
      expect(texts[0]).toMatch(/^No gift analyses: an analysis is kept 24 hours/);
    } finally {
      ahead = 0;
    }
  });
});

describe("show_job", () => {
  it("renders the widget with the start's template, a fresh view id and the job's state, in both eras", async () => {
    const [legacy, modern] = [await legacyAs("alice"), await modernAs("alice")];
    const tools = (await legacy.listTools()).tools;
    const template = tools.find((t) => t.name === TOOL.startBulk)?._meta?.["openai/outputTemplate"];
    expect(template).toMatch(/^ui:\/\//);
    expect(tools.find((t) => t.name === TOOL.showJob)?._meta).toMatchObject({
      ui: { resourceUri: template },
      "openai/outputTemplate": template,
    });
    const { jobId } = await startJob(legacy, startArgs(5));
    await call(legacy, TOOL.waitForJob, { jobId, timeoutMs: 20_000 });
    const views = new Set<unknown>();
    for (const client of [legacy, modern, legacy]) {
      const shown = await call(client, TOOL.showJob, { jobId });
      expect(shown.isError).toBeFalsy();
      expect(ShowJobOutput.parse(shown.structuredContent)).toEqual({
        jobId,
        status: "completed",
        stages: [
          { id: "parse", label: expect.any(String) },
          { id: "extract", label: expect.any(String) },
          { id: "match", label: expect.any(String) },
          { id: "compose", label: expect.any(String) },
        ],
        resultUri: `gifts://jobs/${jobId}/result`,
        currency: "USD",
        summary: expect.stringMatching(/^Found farewell gift ideas for \d of 5 people/),
        resultCount: 5,
      });
      expect(toolText(shown)).toMatch(new RegExp(`^Job ${jobId} .* completed: Found`));
      expect(shown._meta?.[VIEW_ID_META_KEY]).toMatch(UUID);
      views.add(shown._meta?.[VIEW_ID_META_KEY]);
    }
    expect(views.size).toBe(3);
  });

  it("shows a running job as running, for the widget to follow from its events", async () => {
    const alice = await legacyAs("alice");
    const started = await call(alice, TOOL.startBulk, startArgs(400), { [PACE_META_KEY]: 3_000 });
    const { jobId } = ShowJobOutput.parse(started.structuredContent);
    try {
      const shown = await call(alice, TOOL.showJob, { jobId });
      const output = ShowJobOutput.parse(shown.structuredContent);
      expect(output.status).toMatch(/^(pending|running)$/);
      expect(output).not.toHaveProperty("summary");
      expect(toolText(shown)).toMatch(/The widget follows it live/);
    } finally {
      await call(alice, TOOL.cancelJob, { jobId });
    }
  });

  it("finds nobody else's job: the same not-found as a job that does not exist", async () => {
    const [alice, bob] = [await legacyAs("alice"), await legacyAs("bob")];
    const { jobId } = await startJob(alice, startArgs(3));
    const foreign = await call(bob, TOOL.showJob, { jobId });
    const unknown = await call(bob, TOOL.showJob, { jobId: MISSING });
    expect(toolError(foreign)).toMatchObject({ code: "unknown_job" });
    const { _meta: _a, ...foreignReply } = foreign;
    const { _meta: _b, ...unknownReply } = unknown;
    expect(JSON.stringify(foreignReply).split(jobId).join("<job>")).toBe(
      JSON.stringify(unknownReply).split(MISSING).join("<job>"),
    );
  });
});

describe("claim_job_follow_up", () => {
  it("is the widget's own: hidden from the model, callable by the widget", async () => {
    const alice = await legacyAs("alice");
    const meta = (await alice.listTools()).tools.find((t) => t.name === TOOL.claimFollowUp)?._meta;
    expect(meta).toMatchObject({
      ui: { visibility: ["app"] },
      "openai/visibility": "private",
      "openai/widgetAccessible": true,
    });
    expect(meta).not.toHaveProperty("openai/outputTemplate");
  });

  it("answers false while the job runs, then true to one of 20 claims made at once from both eras", async () => {
    const [legacy, modern, bob] = [await legacyAs("alice"), await modernAs("alice"), await legacyAs("bob")];
    const started = await call(legacy, TOOL.startBulk, startArgs(400), { [PACE_META_KEY]: 3_000 });
    const { jobId } = ShowJobOutput.parse(started.structuredContent);
    const claim = async (client: AnyClient) => {
      const result = await call(client, TOOL.claimFollowUp, { jobId });
      expect(result.isError, toolText(result)).toBeFalsy();
      return ClaimFollowUpOutput.parse(result.structuredContent);
    };
    expect(await claim(legacy)).toEqual({ jobId, claimed: false });
    expect(await claim(modern)).toEqual({ jobId, claimed: false });
    await call(legacy, TOOL.cancelJob, { jobId });
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(i % 2 ? legacy : modern)));
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    expect(await claim(legacy)).toEqual({ jobId, claimed: false });
    // Bob holding the id claims nothing: the job is not found for him
    expect(toolError(await call(bob, TOOL.claimFollowUp, { jobId }))).toMatchObject({ code: "unknown_job" });
  });
});

describe("a view id on every result that renders the widget", () => {
  it("comes fresh with each start, the awaiting-file one too, and each suggestion, in both eras", async () => {
    for (const client of [await legacyAs("alice"), await modernAs("alice")]) {
      const results = [
        await call(client, TOOL.startBulk, startArgs(3)),
        await call(client, TOOL.startBulk, { occasion: "farewell", budgetPerPerson: 40 }),
        await call(client, TOOL.suggestGifts, { occasion: "birthday", budget: 50, recipient: "likes tea" }),
        await call(client, TOOL.suggestGifts, { occasion: "birthday", budget: 50, recipient: "likes tea" }),
      ];
      expect(results[1].structuredContent).toMatchObject({ awaitingFile: true });
      const ids = results.map((r) => r._meta?.[VIEW_ID_META_KEY]);
      for (const id of ids) expect(id).toMatch(UUID);
      expect(new Set(ids).size).toBe(ids.length);
      // a tool that does not render the widget has none
      const listed = await call(client, TOOL.listJobs, {});
      expect(listed._meta?.[VIEW_ID_META_KEY]).toBeUndefined();
    }
  });
});
