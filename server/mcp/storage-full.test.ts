/**
 * A full disk, over real HTTP. With the file capped (`max_page_count`), another connection fills
 * it while a job runs: what a client was told stays readable, the job ends as failed once, a start
 * meanwhile is an `isError` sentence. On real small volumes (a tmpfs mounted per test, so root):
 * delete_job frees room on a full disk, on a server just restarted too; a job cut off by the disk
 * reads as failed at once and is ended once there is room; /healthz says the storage is full; and
 * a fresh server starts and runs a small job on 512 KB.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import Database from "better-sqlite3";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JobEvent } from "../../shared/job-events.js";
import {
  CancelJobOutput,
  DeleteJobOutput,
  GetJobEventsOutput,
  StartBulkOutput,
  TOOL,
  WaitForJobOutput,
} from "../../shared/tools.js";
import { PACE_META_KEY, pauseAtPace } from "../dev-pace.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { expectJobHistory } from "../../test-kit/job-history.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createSqliteStore, type SqliteStoreOptions } from "../jobs/stores/sqlite.js";
import {
  callTool,
  connectClient,
  readJobHistory,
  startTestServer,
  toolError,
  toolText,
  untilJobProgress,
} from "../../test-kit/servers/test-server.js";

const dir = mkdtempSync(join(tmpdir(), "giftgenius-full-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A server on the SQLite file `file`, with a client; `errors` collects what the service reports. */
async function serve(file: string, options: SqliteStoreOptions = {}) {
  const errors: unknown[] = [];
  const jobs = createJobService({
    store: createSqliteStore(file, options),
    match: matchGifts,
    limits: { sweepIntervalMs: 100 },
    onError: (error) => errors.push(error),
    beforeSlice: pauseAtPace,
  });
  const server = await startTestServer({ jobs, devPace: true });
  const client = await connectClient(server.mcpUrl);
  return {
    server,
    client,
    errors,
    /** Starts a job of `rows` rows, slowed by `paceMs` between slices. */
    start: async (rows: number, paceMs = 0) =>
      CallToolResultSchema.parse(
        await client.callTool({
          name: TOOL.startBulk,
          arguments: { csv: employeeCsv(rows), occasion: "holiday", budgetPerPerson: 40 },
          _meta: { [PACE_META_KEY]: paceMs },
        }),
      ),
    health: async () => {
      const response = await fetch(`${server.url}/healthz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Follows a job until it ends, or until a poll of `waitMs` brings nothing; returns the last page. */
async function follow(client: Client, jobId: string, events: JobEvent[], waitMs: number) {
  for (;;) {
    const result = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq: events.length, waitMs });
    if (result.isError) throw new Error(toolText(result));
    const page = GetJobEventsOutput.parse(result.structuredContent);
    events.push(...page.events);
    if (page.done || page.events.length === 0) return page;
  }
}

/** Follows a job until its last event is read; returns its status. */
async function followToEnd(client: Client, jobId: string, events: JobEvent[]) {
  let status = "";
  await vi.waitFor(
    async () => {
      const page = await follow(client, jobId, events, 1_000);
      status = page.status;
      expect(page.done).toBe(true);
    },
    { timeout: 20_000, interval: 100 },
  );
  return status;
}

/** Waits for the job to end (wait_for_job) and returns its status. */
async function waitForEnd(client: Client, jobId: string, timeoutMs = 30_000) {
  const result = await callTool(client, TOOL.waitForJob, { jobId, timeoutMs });
  if (result.isError) throw new Error(toolText(result));
  return WaitForJobOutput.parse(result.structuredContent);
}

it("keeps every acknowledged event, ends the job it could not write as failed, and refuses starts with a sentence", async () => {
  const file = join(dir, "giftgenius.db");
  const MAX_PAGES = 1600; // 6.4 MB of 4 KB pages
  const { client, errors, start, close } = await serve(file, { maxPageCount: MAX_PAGES });
  const other = new Database(file);
  try {
    const { jobId } = StartBulkOutput.parse((await start(20_000, 20)).structuredContent);
    await untilJobProgress(client, jobId);
    const received: JobEvent[] = [];
    await follow(client, jobId, received, 0);

    // another program fills the disk: the file grows past the server's cap
    other.exec("CREATE TABLE filler (body BLOB)");
    const fill = other.prepare("INSERT INTO filler VALUES (zeroblob(60000))");
    while ((other.pragma("page_count", { simple: true }) as number) <= MAX_PAGES) fill.run();

    const refused = await start(2_000);
    expect(toolError(refused)).toEqual({
      code: "internal",
      message:
        "start_bulk_gift_analysis failed unexpectedly: the server's job storage is full, so nothing more can be " +
        "saved until old jobs expire or its operator frees space.",
      hint: "Try again in a moment.",
    });
    // the running job cannot write its next events: it stops, and reads as failed from then on
    expect((await follow(client, jobId, received, 3_000)).status).toBe("failed");
    expect(errors.some((e) => String(e).includes("storage is full"))).toBe(true);
    const before = await readJobHistory(client, jobId);
    expect(before.events.slice(0, received.length)).toEqual(received);

    // room again: the job's end is written, once, with everything it had said still there
    other.exec("DROP TABLE filler");
    expect(await followToEnd(client, jobId, received)).toBe("failed");
    const history = await readJobHistory(client, jobId);
    expect(history.events.slice(0, received.length)).toEqual(received);
    const { terminal } = expectJobHistory(history.raw, history.last);
    expect(terminal).toMatchObject({
      type: "job.failed",
      payload: { code: "internal", message: expect.stringMatching(/storage is full/), retryable: true },
    });

    const again = await start(2_000);
    expect(again.isError).toBeFalsy();
    const next = StartBulkOutput.parse(again.structuredContent).jobId;
    expect(await followToEnd(client, next, [])).toBe("completed");
  } finally {
    other.close();
    await close();
  }
});

/** Whether this process may mount a tmpfs (root on Linux); the tests on real volumes need it. */
const canMount = (() => {
  try {
    smallVolume(64).unmount();
    return true;
  } catch (error) {
    // CI runs as root and needs these tests: a skip there would hide them
    if (!["", "0", "false", undefined].includes(process.env.CI)) throw error;
    return false;
  }
})();

/** A tmpfs of `kb` KB mounted in a new temporary directory. */
function smallVolume(kb: number) {
  const at = mkdtempSync(join(tmpdir(), "giftgenius-volume-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${kb}k`, "tmpfs", at], { stdio: "ignore" });
  return {
    dir: at,
    file: join(at, "giftgenius.db"),
    unmount() {
      try {
        execFileSync("umount", [at], { stdio: "ignore" });
      } catch {
        // still open somewhere (a server that failed to start): detached now, freed once closed
        execFileSync("umount", ["-l", at]);
      }
      rmSync(at, { recursive: true, force: true });
    },
  };
}

/** Fills the volume at `at` to its last block, as another program would; returns the filler's path. */
function fillUp(at: string): string {
  const filler = join(at, "filler");
  const fd = openSync(filler, "w");
  try {
    for (const size of [64 * 1024, 4096, 1]) {
      const block = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}

describe.skipIf(!canMount)("on a real volume that fills up", () => {
  it("deletes a job through delete_job on a full disk, on a server just restarted, and gives its room back", async () => {
    const volume = smallVolume(8192);
    try {
      const first = await serve(volume.file);
      let jobId: string;
      try {
        jobId = StartBulkOutput.parse((await first.start(2_000)).structuredContent).jobId;
        expect((await waitForEnd(first.client, jobId)).status).toBe("completed");
      } finally {
        await first.close();
      }
      // a server just started holds no journal yet; then another program fills the disk
      const { client, close } = await serve(volume.file);
      try {
        fillUp(volume.dir);
        const size = statSync(volume.file).size;
        const deleted = await callTool(client, TOOL.deleteJob, { jobId });
        expect(deleted.isError, toolText(deleted)).toBeFalsy();
        expect(DeleteJobOutput.parse(deleted.structuredContent)).toEqual({ jobId, canceled: false });
        expect(statSync(volume.file).size).toBeLessThan(size);
        const read = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq: 0 });
        expect(toolError(read)).toMatchObject({ code: "unknown_job" });
        console.log(`delete on a full disk: the database went from ${size} to ${statSync(volume.file).size} bytes`);
      } finally {
        await close();
      }
    } finally {
      volume.unmount();
    }
  });

  it("shows a job cut off by a full disk as failed at once, says so at /healthz, and ends it once there is room", async () => {
    const volume = smallVolume(16 * 1024);
    const { client, errors, start, health, close } = await serve(volume.file);
    expect((await health()).body).toMatchObject({ status: "ok", store: "ok" });
    // a backup reading the file: while its snapshot is open the journal (WAL) cannot start over,
    // so once the journal has grown past what it held, a full disk leaves no write any room, the
    // job's end included
    const reader = new Database(volume.file, { readonly: true });
    const wal = `${volume.file}-wal`;
    try {
      reader.exec("BEGIN");
      reader.prepare("SELECT count(*) FROM jobs").get();
      const walBefore = statSync(wal).size;
      const { jobId } = StartBulkOutput.parse((await start(20_000, 20)).structuredContent);
      await untilJobProgress(client, jobId);
      await vi.waitFor(() => expect(statSync(wal).size).toBeGreaterThan(walBefore));
      const filler = fillUp(volume.dir);

      // readers see it failed as soon as it stops, before its end is written
      await vi.waitFor(
        async () => {
          const page = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq: 0, waitMs: 0 });
          expect(GetJobEventsOutput.parse(page.structuredContent).status).toBe("failed");
        },
        { timeout: 10_000, interval: 50 },
      );
      const received: JobEvent[] = [];
      expect(await follow(client, jobId, received, 20_000)).toMatchObject({ status: "failed", done: false });
      expect(received.map((e) => e.type)).not.toContain("job.failed");
      const waited = await waitForEnd(client, jobId);
      expect(waited).toMatchObject({ status: "failed", done: true });
      expect(waited.view.error).toMatchObject({ message: expect.stringMatching(/storage is full/) });
      expect(toolError(await callTool(client, TOOL.getJobResult, { jobId }))).toMatchObject({
        code: "job_not_finished",
        message: `Job ${jobId} failed, so it has no result.`,
      });
      const canceled = await callTool(client, TOOL.cancelJob, { jobId });
      expect(CancelJobOutput.parse(canceled.structuredContent)).toEqual({ jobId, status: "failed", changed: false });
      expect(await health()).toEqual({
        status: 200,
        body: expect.objectContaining({ status: "degraded", store: "full", reason: expect.stringMatching(/full/) }),
      });
      expect(errors.some((e) => String(e).includes("storage is full"))).toBe(true);

      // room again: the end is written, as readers were told it
      reader.exec("COMMIT");
      rmSync(filler);
      expect(await followToEnd(client, jobId, received)).toBe("failed");
      const history = await readJobHistory(client, jobId);
      const { terminal } = expectJobHistory(history.raw, history.last);
      expect(terminal).toMatchObject({
        type: "job.failed",
        payload: { code: "internal", message: expect.stringMatching(/storage is full/), retryable: true },
      });
      await vi.waitFor(async () => expect((await health()).body).toMatchObject({ status: "ok", store: "ok" }), {
        timeout: 10_000,
      });
      const next = StartBulkOutput.parse((await start(100)).structuredContent).jobId;
      expect((await waitForEnd(client, next)).status).toBe("completed");
    } finally {
      reader.close();
      await close();
      volume.unmount();
    }
  });

  it("starts fresh on a 512 KB volume and runs a small job to its end", async () => {
    const volume = smallVolume(512);
    try {
      const { client, start, close } = await serve(volume.file);
      try {
        const jobId = StartBulkOutput.parse((await start(10)).structuredContent).jobId;
        expect((await waitForEnd(client, jobId)).status).toBe("completed");
        const result = await callTool(client, TOOL.getJobResult, { jobId });
        expect(result.isError, toolText(result)).toBeFalsy();
        const deleted = await callTool(client, TOOL.deleteJob, { jobId });
        expect(deleted.isError, toolText(deleted)).toBeFalsy();
      } finally {
        await close();
      }
    } finally {
      volume.unmount();
    }
  });
});
