/**
 * Crash safety as a user runs the server: main.ts in a child process on the SQLite store, killed
 * with SIGKILL at seeded-random moments while jobs run, and started again on the same DATA_DIR,
 * round after round. After every kill the file passes `PRAGMA integrity_check`; after every
 * restart every event a client was ever given reads back with the same seq and eventId, every
 * completed result reads back page for page, and every job the kill cut off has ended as a
 * retryable `interrupted` failure with exactly one terminal event.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import Database from "better-sqlite3";
import type { JobEvent } from "../shared/job-events.js";
import { seededRandom } from "../shared/seeded-random.js";
import {
  GetJobEventsOutput,
  GetJobResultOutput,
  StartBulkOutput,
  TOOL,
  type GetJobResultResult,
} from "../shared/tools.js";
import { PACE_META_KEY } from "./dev-pace.js";
import { employeeCsv } from "../test-kit/employee-csv.js";
import { expectJobHistory } from "../test-kit/job-history.js";
import { callTool, connectClient, readJobHistory, toolText } from "../test-kit/servers/test-server.js";

const KILLS = Number(process.env.CRASH_KILLS ?? 10);
/** A job that takes far longer than the 2 s before a kill: about 90 slices at a 40 ms pace. */
const LONG_JOB = { rows: 20_000, paceMs: 40 };
const SEED = Number(process.env.CRASH_SEED ?? 20_261_201);
const CUT_OFF_MESSAGES = [
  "The server restarted while this job was running, so it stopped before finishing.",
  "The server restarted before this job could start.",
];

/** What the clients were told about one job, to hold every later server to it. */
type Seen = {
  jobId: string;
  /** Every event received, by seq. */
  events: Map<number, JobEvent>;
  /** The result pages, once read in full. */
  pages?: GetJobResultResult[];
  /** Whether its end had been received before the kill that followed its start. */
  endedBeforeKill: boolean;
};

type Running = { child: ChildProcess; mcpUrl: URL; exited: Promise<unknown> };

/** Starts main.ts as `npm run dev` would, on a free port, and resolves once it listens. */
async function startMain(dataDir: string): Promise<Running> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", STORE: "sqlite", DATA_DIR: dataDir, GIFTGENIUS_DEV: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const port = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const listening = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(line);
      if (listening) resolve(listening[1]);
    });
    child.once("exit", (code) => reject(new Error(`main.ts exited with ${code} before it listened`)));
  });
  return { child, mcpUrl: new URL(`http://127.0.0.1:${port}/mcp`), exited };
}

async function readPages(client: Client, jobId: string): Promise<GetJobResultResult[]> {
  const pages = [];
  for (let offset: number | null = 0; offset !== null;) {
    const result = await callTool(client, TOOL.getJobResult, { jobId, offset, limit: 500 });
    if (result.isError) throw new Error(toolText(result));
    const page = GetJobResultOutput.parse(result.structuredContent);
    pages.push(page);
    offset = page.nextOffset;
  }
  return pages;
}

/** `PRAGMA integrity_check` on the file as the killed process left it, opened read-only. */
function integrity(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return String(db.pragma("integrity_check", { simple: true }));
  } finally {
    db.close();
  }
}

const dataDir = mkdtempSync(join(tmpdir(), "giftgenius-crash-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it(`survives ${KILLS} SIGKILLs mid-job with every event, result and ending intact`, { timeout: 180_000 }, async () => {
  const random = seededRandom(SEED);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const seen = new Map<string, Seen>();
  const tally = { kills: 0, jobs: 0, cutOff: 0, completed: 0, eventsChecked: 0, pagesChecked: 0 };
  const began = performance.now();

  for (let round = 0; round <= KILLS; round++) {
    const server = await startMain(dataDir);
    const client = await connectClient(server.mcpUrl);

    // everything the earlier servers said still holds
    for (const job of seen.values()) {
      const history = await readJobHistory(client, job.jobId);
      const { terminal } = expectJobHistory(history.raw, history.last);
      for (const [seq, event] of job.events) expect(history.events[seq - 1]).toEqual(event);
      tally.eventsChecked += job.events.size;
      if (terminal.type === "job.completed") {
        const pages = await readPages(client, job.jobId);
        if (job.pages) expect(pages).toEqual(job.pages);
        else job.pages = pages;
        tally.pagesChecked += pages.length;
      } else if (!job.endedBeforeKill) {
        expect(terminal).toMatchObject({
          type: "job.failed",
          payload: {
            code: "interrupted",
            retryable: true,
            hint: "Run the analysis again with start_bulk_gift_analysis.",
          },
        });
        expect(CUT_OFF_MESSAGES).toContain(terminal.type === "job.failed" && terminal.payload.message);
      }
      job.endedBeforeKill = true; // it has ended by now, whichever way
    }
    if (round === KILLS) {
      await client.close();
      server.child.kill("SIGTERM");
      await server.exited;
      break;
    }

    // a few jobs, one of them too long to finish before the kill, followed with long polls
    let killed = false;
    const failures: unknown[] = [];
    const guard = (work: Promise<unknown>) => work.catch((error) => void (killed || failures.push(error)));
    let underWay!: () => void;
    const longJobStarted = new Promise<void>((resolve) => (underWay = resolve));
    const start = async (rows: number, paceMs: number) => {
      const reply = await client.callTool({
        name: TOOL.startBulk,
        arguments: { csv: employeeCsv(rows, { seed: SEED }), occasion: "holiday", budgetPerPerson: 40 },
        _meta: { [PACE_META_KEY]: paceMs },
      });
      const { jobId } = StartBulkOutput.parse(reply.structuredContent);
      const job: Seen = { jobId, events: new Map(), endedBeforeKill: false };
      seen.set(jobId, job);
      tally.jobs++;
      if (rows === LONG_JOB.rows) underWay();
      for (let afterSeq = 0; !killed;) {
        const result = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq, waitMs: 5_000, limit: 1000 });
        if (result.isError) throw new Error(toolText(result));
        const page = GetJobEventsOutput.parse(result.structuredContent);
        for (const event of page.events) job.events.set(event.seq, event);
        afterSeq = page.nextSeq;
        if (page.done) {
          job.endedBeforeKill = true;
          if (page.status === "completed") {
            tally.completed++;
            job.pages = await readPages(client, jobId);
          }
          return;
        }
      }
    };
    const work = [guard(start(LONG_JOB.rows, LONG_JOB.paceMs))];
    for (let n = between(1, 3); n > 0; n--) work.push(guard(start(between(100, 3_000), between(0, 5))));

    // the kill comes at a seeded moment of the first 2 s after the long job was created, while
    // the others are being created, running, finishing or being read
    await Promise.race([longJobStarted, work[0]]);
    await new Promise((resolve) => setTimeout(resolve, between(0, 2_000)));
    killed = true;
    server.child.kill("SIGKILL");
    await server.exited;
    tally.kills++;
    // closing the client ends its calls in flight at once (its own retries would wait them out)
    await client.close().catch(() => {});
    await Promise.all(work);
    expect(failures).toEqual([]);
    expect(integrity(join(dataDir, "giftgenius.db"))).toBe("ok");
    for (const job of seen.values()) if (!job.endedBeforeKill) tally.cutOff++;
  }

  console.log(
    `crash loop (seed ${SEED}): ${tally.kills} kills survived, ${tally.jobs} jobs (${tally.cutOff} cut off, ` +
      `${tally.completed} completed before a kill), ${tally.eventsChecked} events and ${tally.pagesChecked} result ` +
      `pages checked after restarts, ${Math.round((performance.now() - began) / 1000)} s`,
  );
  expect(tally.kills).toBe(KILLS);
  // the long job of every round is cut off, so the interrupted path is always exercised
  expect(tally.cutOff).toBeGreaterThanOrEqual(KILLS);
});
