/**
 * Restarts over real HTTP with the official MCP client, on the SQLite store in a temporary data
 * directory as main.ts wires it: a finished job's result and events outlive the server, a job cut
 * off by a shutdown or by a process that died ends as a retryable `interrupted` failure.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { GetJobResultOutput, TOOL, WaitForJobOutput } from "../../shared/tools.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import type { JobStore } from "../jobs/store.js";
import { createSqliteStore } from "../jobs/stores/sqlite.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { expectJobHistory } from "../../test-kit/job-history.js";
import {
  callTool,
  connectClient,
  readJobHistory,
  startJob,
  startTestServer,
  toolError,
  untilJobProgress,
  type TestServer,
} from "../../test-kit/servers/test-server.js";

const dataDirs: string[] = [];
/** A fresh DATA_DIR and the database file main.ts would open in it. */
function dataFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "giftgenius-restart-"));
  dataDirs.push(dir);
  return join(dir, "giftgenius.db");
}
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** An app over the SQLite file, as main.ts builds it. */
const startOn = (file: string, store: JobStore = createSqliteStore(file)) =>
  startTestServer({ jobs: createJobService({ store, match: matchGifts, limits: { maxConcurrentJobs: 1 } }) });

/**
 * A store whose process can die: after `kill()` every call fails and nothing more reaches the
 * file, as if the process had stopped between two writes. Only `close` still releases the file.
 */
function mortal(store: JobStore): { store: JobStore; kill(): void } {
  let dead = false;
  const proxy = new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      if (key === "close") return value.bind(target);
      return (...args: unknown[]) =>
        dead ? Promise.reject(new Error("The process is gone.")) : value.apply(target, args);
    },
  });
  return { store: proxy, kill: () => void (dead = true) };
}

async function readPages(client: Client, jobId: string) {
  const pages = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = GetJobResultOutput.parse(
      (await callTool(client, TOOL.getJobResult, { jobId, offset, limit: 500 })).structuredContent,
    );
    pages.push(page);
    offset = page.nextOffset;
  }
  return pages;
}

const readResource = async (client: Client, uri: string) => (await client.readResource({ uri })).contents;

const HINT = "Run the analysis again with start_bulk_gift_analysis.";

/** Asserts that a job's whole history ends as interrupted with `message`; returns the history. */
async function expectInterrupted(client: Client, jobId: string, message: string) {
  const history = await readJobHistory(client, jobId);
  const { terminal } = expectJobHistory(history.raw, history.last);
  expect(terminal).toMatchObject({
    type: "job.failed",
    payload: { code: "interrupted", message, hint: HINT, retryable: true },
  });
  const waited = WaitForJobOutput.parse((await callTool(client, TOOL.waitForJob, { jobId })).structuredContent);
  expect(waited).toMatchObject({
    status: "failed",
    done: true,
    view: { error: { code: "interrupted", retryable: true, hint: HINT } },
  });
  expect(toolError(await callTool(client, TOOL.getJobResult, { jobId }))).toMatchObject({
    code: "job_not_finished",
    message: `Job ${jobId} failed, so it has no result.`,
  });
  return history.events;
}

describe("a restart on the same SQLite file", () => {
  let a: TestServer | undefined;
  let b: TestServer | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await a?.close();
    await b?.close();
    a = b = undefined;
  });

  it("keeps a finished job's result and events, and ends the job a shutdown cut off as interrupted", async () => {
    const file = dataFile();
    a = await startOn(file);
    const clientA = await connectClient(a.mcpUrl);
    clients.push(clientA);
    // several storage chunks of people, and a skipped row at the end
    const done = await startJob(clientA, {
      csv: `${employeeCsv(6_000)},Sales,tea,20\n`,
      occasion: "holiday",
      budgetPerPerson: 40,
    });
    await callTool(clientA, TOOL.waitForJob, { jobId: done.jobId });
    const before = {
      history: await readJobHistory(clientA, done.jobId),
      pages: await readPages(clientA, done.jobId),
      resource: await readResource(clientA, done.resultUri),
    };
    expect(before.pages.flatMap((p) => p.people)).toHaveLength(6_000);
    expect(before.pages.flatMap((p) => p.skipped)).toEqual([
      { row: 6_002, department: "Sales", reason: "it has no name" },
    ]);
    const cut = await startJob(clientA, { csv: employeeCsv(100_000), occasion: "holiday", budgetPerPerson: 40 });
    await untilJobProgress(clientA, cut.jobId);
    await a.close(); // the service's close records the running job as interrupted
    a = undefined;

    b = await startOn(file);
    const clientB = await connectClient(b.mcpUrl);
    clients.push(clientB);
    const after = await readJobHistory(clientB, done.jobId);
    expect(after.events).toEqual(before.history.events);
    expect(after.last).toEqual(before.history.last);
    expectJobHistory(after.raw, after.last);
    expect(await readPages(clientB, done.jobId)).toEqual(before.pages);
    expect(await readResource(clientB, done.resultUri)).toEqual(before.resource);

    const events = await expectInterrupted(clientB, cut.jobId, "The server shut down before this job finished.");
    expect(events.some((e) => e.type === "job.progress" && e.payload.percentage > 0)).toBe(true);
  });

  it("ends the running and waiting jobs of a process that died as interrupted when a fresh server opens the file", async () => {
    const file = dataFile();
    const dying = mortal(createSqliteStore(file));
    a = await startOn(file, dying.store);
    const clientA = await connectClient(a.mcpUrl);
    clients.push(clientA);
    const running = await startJob(clientA, { csv: employeeCsv(100_000), occasion: "farewell", budgetPerPerson: 50 });
    const waiting = await startJob(clientA, { csv: employeeCsv(5), occasion: "farewell", budgetPerPerson: 50 });
    expect(waiting.status).toBe("pending");
    await untilJobProgress(clientA, running.jobId);
    dying.kill(); // from here on the first server writes nothing, not even on close
    await a.close();
    a = undefined;

    b = await startOn(file);
    const clientB = await connectClient(b.mcpUrl);
    clients.push(clientB);
    const ran = await expectInterrupted(
      clientB,
      running.jobId,
      "The server restarted while this job was running, so it stopped before finishing.",
    );
    expect(ran.some((e) => e.type === "job.progress")).toBe(true);
    const waited = await expectInterrupted(clientB, waiting.jobId, "The server restarted before this job could start.");
    expect(waited.map((e) => e.type)).toEqual(["job.created", "job.failed"]);
  });
});
