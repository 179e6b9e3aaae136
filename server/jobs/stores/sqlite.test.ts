/**
 * The SQLite store on real files in a temporary directory: the store contract (looking into the
 * file for deleted chunks), the service suite with its 100,000-row run (a store that writes within
 * the job's slices must still let the event loop turn), the durable-store suite (results and events
 * that outlive the process, jobs cut off by a killed process), and opening the file itself.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { describeDurableStore } from "../durable-store-suite.js";
import { describeJobService } from "../service-suite.js";
import { describeJobStore, type ChunksKept } from "../store-suite.js";
import type { JobStore } from "../store.js";
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
describeJobService("sqlite", () => createSqliteStore(nextFile()), { heavy: true });
describeDurableStore("sqlite", () => ["sqlite", nextFile()]);

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
});
