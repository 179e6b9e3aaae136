/**
 * The SQLite store on real files in a temporary directory: the store contract (looking into the
 * file for deleted chunks) and the service suite, then what only a disk gives: results and events
 * that outlive the process, and jobs cut off by a crash (a child process killed mid-job) ending as
 * `interrupted` on the next start.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createJobService } from "../job-service.js";
import { describeJobService } from "../service-suite.js";
import { describeJobStore, type ChunksKept } from "../store-suite.js";
import type { JobStore } from "../store.js";
import { ALICE, expectValidHistory, history, makeCsv, settle, testMatch } from "../test-support.js";
import { createSqliteStore } from "./sqlite.js";

const dir = mkdtempSync(join(tmpdir(), "giftgenius-jobs-"));
let files = 0;
const nextFile = () => join(dir, `db-${++files}`, "jobs.sqlite");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileOf = new WeakMap<JobStore, string>();
/** Counts a job's chunk rows through a connection of its own, as another process would see them. */
const chunksKept: ChunksKept = async (store, jobId) => {
  const db = new Database(fileOf.get(store)!);
  try {
    return db.prepare<[string], number>("SELECT count(*) FROM result_chunks WHERE job_id = ?").pluck().get(jobId)!;
  } finally {
    db.close();
  }
};
describeJobStore(
  "sqlite",
  () => {
    const file = nextFile();
    const store = createSqliteStore(file);
    fileOf.set(store, file);
    return store;
  },
  chunksKept,
);
describeJobService("sqlite", () => createSqliteStore(nextFile()));

describe("the sqlite store on disk", () => {
  it("creates the directory, and also opens a private in-memory database", async () => {
    const file = join(dir, "a", "b", "c", "jobs.sqlite");
    const store = createSqliteStore(file);
    expect(existsSync(file)).toBe(true);
    await store.close();
    const memory = createSqliteStore(":memory:");
    expect(await memory.listUnfinished()).toEqual([]);
    await memory.close();
  });

  it("keeps finished results and every event after a clean restart", async () => {
    const file = nextFile();
    const first = createJobService({ store: createSqliteStore(file), match: testMatch });
    const started = await first.start({ csv: makeCsv(7_000), occasion: "farewell", budgetPerPerson: 30 }, ALICE);
    if (!started.ok) throw new Error(started.error.message);
    await settle(first, started.value.jobId);
    const events = await history(first, started.value.jobId);
    const result = await first.readResult(started.value.jobId, ALICE);
    await first.close();

    const second = createJobService({ store: createSqliteStore(file), match: testMatch });
    try {
      expect(await history(second, started.value.jobId)).toEqual(events);
      expect(await second.readResult(started.value.jobId, ALICE)).toEqual(result);
    } finally {
      await second.close();
    }
  });

  it("ends the jobs a crashed process left running or waiting as interrupted, and keeps the rest", async () => {
    const file = nextFile();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(new URL("./crash-child.ts", import.meta.url)), file],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", () => reject(new Error("the child exited before its jobs were running")));
    });
    child.kill("SIGKILL"); // no close(), no cleanup: the process is simply gone
    await exited;
    const { done, running, waiting } = JSON.parse(line) as Record<string, string>;

    const service = createJobService({ store: createSqliteStore(file), match: testMatch });
    try {
      for (const [jobId, message] of [
        [running, "The server restarted while this job was running, so it stopped before finishing."],
        [waiting, "The server restarted before this job could start."],
      ]) {
        const events = await history(service, jobId);
        const { terminal } = expectValidHistory(events);
        expect(terminal).toMatchObject({
          type: "job.failed",
          payload: {
            code: "interrupted",
            message,
            retryable: true,
            hint: "Run the analysis again with start_bulk_gift_analysis.",
          },
        });
      }
      const runningEvents = await history(service, running);
      expect(runningEvents.some((e) => e.type === "job.progress")).toBe(true);
      const result = await service.readResult(done, ALICE);
      expect(result.ok && result.value.people.length).toBe(40);
      expect(expectValidHistory(await history(service, done)).terminal.type).toBe("job.completed");
    } finally {
      await service.close();
    }
  });
});
