/**
 * A full disk, over real HTTP: the server's SQLite file is capped (`max_page_count`), and while a
 * job runs another connection fills the file past the cap, as another program filling the disk
 * would. Whatever a client was told stays readable, the running job ends as failed (at once, or at
 * the first sweep once there is room), a start meanwhile is an `isError` result whose sentence says
 * the storage is full, and once the room is back a new job runs to the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import Database from "better-sqlite3";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JobEvent } from "../../shared/job-events.js";
import { GetJobEventsOutput, PACE_META_KEY, StartBulkOutput, TOOL } from "../../shared/tools.js";
import { employeeCsv } from "../../test-kit/employee-csv.js";
import { expectJobHistory } from "../../test-kit/job-history.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createSqliteStore } from "../jobs/stores/sqlite.js";
import {
  callTool,
  connectClient,
  readJobHistory,
  startTestServer,
  toolError,
  toolText,
  untilJobProgress,
} from "../test-support.js";

const dir = mkdtempSync(join(tmpdir(), "giftgenius-full-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("keeps every acknowledged event, ends the job it could not write as failed, and refuses starts with a sentence", async () => {
  const file = join(dir, "giftgenius.db");
  const MAX_PAGES = 100; // 6.4 MB
  const store = createSqliteStore(file, { maxPageCount: MAX_PAGES });
  const errors: unknown[] = [];
  const jobs = createJobService({
    store,
    match: matchGifts,
    limits: { sweepIntervalMs: 100 },
    onError: (error) => errors.push(error),
  });
  const server = await startTestServer({ jobs, devPace: true });
  const client = await connectClient(server.mcpUrl);
  const other = new Database(file);
  try {
    const start = async (rows: number, paceMs = 0) =>
      CallToolResultSchema.parse(
        await client.callTool({
          name: TOOL.startBulk,
          arguments: { csv: employeeCsv(rows), occasion: "holiday", budgetPerPerson: 40 },
          _meta: { [PACE_META_KEY]: paceMs },
        }),
      );
    /** Follows a job until it ends, or until a poll of `waitMs` brings nothing; returns its status. */
    const follow = async (jobId: string, events: JobEvent[], waitMs: number) => {
      for (;;) {
        const result = await callTool(client, TOOL.getJobEvents, { jobId, afterSeq: events.length, waitMs });
        if (result.isError) throw new Error(toolText(result));
        const page = GetJobEventsOutput.parse(result.structuredContent);
        events.push(...page.events);
        if (page.done || page.events.length === 0) return page.status;
      }
    };

    const { jobId } = StartBulkOutput.parse((await start(20_000, 20)).structuredContent);
    await untilJobProgress(client, jobId);
    const received: JobEvent[] = [];
    await follow(jobId, received, 0);

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
    // the running job cannot write its next events: it stops, and either its end is written or it waits for room
    const status = await follow(jobId, received, 3_000);
    expect(errors.some((e) => String(e).includes("storage is full"))).toBe(true);
    const before = await readJobHistory(client, jobId);
    expect(before.events.slice(0, received.length)).toEqual(received);

    // room again: the job ends as failed, once, with everything it had said still there
    other.exec("DROP TABLE filler");
    if (status === "running") expect(await follow(jobId, received, 10_000)).toBe("failed");
    const history = await readJobHistory(client, jobId);
    expect(history.events.slice(0, received.length)).toEqual(received);
    const { terminal } = expectJobHistory(history.raw, history.last);
    expect(terminal).toMatchObject({
      type: "job.failed",
      payload: { code: "internal", message: expect.stringMatching(/storage is full/), retryable: true },
    });
    console.log(
      `full disk: ${received.length} events received before and while the disk was full, all read back; the job's ` +
        `end was written ${status === "running" ? "once there was room" : "at once"}; ${errors.length} store errors logged`,
    );

    const again = await start(2_000);
    expect(again.isError).toBeFalsy();
    const next = StartBulkOutput.parse(again.structuredContent).jobId;
    expect(await follow(next, [], 10_000)).toBe("completed");
  } finally {
    other.close();
    await client.close();
    await server.close();
  }
});
