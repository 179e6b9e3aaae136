/**
 * The SQLite store on real files in a temporary directory: the store contract (looking into the
 * file for deleted chunks), the service suite with its 100,000-row run (a store that writes within
 * the job's slices must still let the event loop turn), the durable-store suite (results and events
 * that outlive the process, jobs cut off by a killed process), opening the file itself, and the
 * file giving space back once jobs are deleted or expire (incremental auto-vacuum, also turned on
 * in a file made without it), a file of another schema made anew, a file of this schema given what
 * was added to it since (follow-up claims, the index by owner), and a fresh file's size (4 KB pages).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { employeeCsv } from "../../../test-kit/employee-csv.js";
import { describeDurableStore } from "../../../test-kit/jobs/durable-store-suite.js";
import { createJobService } from "../job-service.js";
import { describeJobService } from "../../../test-kit/jobs/service-suite.js";
import { describeJobStore } from "../../../test-kit/jobs/store-suite.js";
import type { JobStore } from "../store.js";
import { seed, type ChunksKept } from "../../../test-kit/jobs/store-seed.js";
import { ALICE, settle, testMatch } from "../../../test-kit/jobs/service-reads.js";
import { createSqliteStore } from "./sqlite.js";
import { jobEvent } from "../../../test-kit/job-events.js";
import { applyJobEvents, createJobFold } from "../../../shared/job-reducer.js";

const dir = mkdtempSync(join(tmpdir(), "giftgenius-jobs-"));
let files = 0;
const nextFile = () => join(dir, `db-${++files}`, "jobs.sqlite");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileOf = new WeakMap<JobStore, string>();
/** Counts a job's chunk rows through a connection of its own, as another process would see them. */
const chunksKept: ChunksKept = async (store, jobId) => {
  const db = new Database(fileOf.get(store));
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

describe("the sqlite store's file", () => {
  const size = (file: string) => statSync(file).size;
  const walSize = (file: string) => (existsSync(`${file}-wal`) ? size(`${file}-wal`) : 0);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

  it("starts small: a fresh database is 14 pages of 4 KB, its journal as it opens a few more", async () => {
    const file = nextFile();
    const store = createSqliteStore(file);
    const wal = walSize(file);
    await store.close();
    console.log(`a fresh database: ${size(file)} bytes, its WAL ${wal} bytes while it opened`);
    expect(size(file)).toBeLessThanOrEqual(64 * 1024);
    expect(wal).toBeLessThanOrEqual(256 * 1024);
  });

  it("shrinks once big jobs are deleted or expire", async () => {
    const file = nextFile();
    let clock = Date.parse("2026-03-01T12:00:00Z");
    const service = createJobService({
      store: createSqliteStore(file),
      match: testMatch,
      now: () => clock,
      limits: { retentionMs: 60_000, sweepIntervalMs: 20 },
    });
    try {
      const jobIds: string[] = [];
      for (let i = 0; i < 3; i++) {
        const started = await service.start(
          { csv: employeeCsv(20_000), occasion: "holiday", budgetPerPerson: 50 },
          ALICE,
        );
        if (!started.ok) throw new Error(started.error.message);
        await settle(service, started.value.jobId);
        jobIds.push(started.value.jobId);
      }
      const full = size(file);
      expect((await service.delete({ jobId: jobIds[0] }, ALICE)).ok).toBe(true);
      const afterDelete = size(file);
      expect(afterDelete).toBeLessThan(full);
      clock += 61_000;
      await vi.waitFor(async () =>
        expect(await service.getEvents({ jobId: jobIds[2], afterSeq: 0, waitMs: 0, limit: 1 }, ALICE)).toMatchObject({
          ok: false,
        }),
      );
      await vi.waitFor(() => expect(size(file)).toBeLessThan(afterDelete / 2), { timeout: 5_000 });
      console.log(
        `sqlite file: ${mb(full)} with 3 jobs of 20,000 rows, ${mb(afterDelete)} after deleting one, ${mb(size(file))} after the others expired (WAL ${mb(walSize(file))})`,
      );
    } finally {
      await service.close();
    }
  });
});

describe("the sqlite store's schema", () => {
  it("makes a file of another schema anew: its jobs go, incremental auto-vacuum comes on", async () => {
    const file = nextFile();
    mkdirSync(dirname(file), { recursive: true });
    const old = new Database(file);
    old.pragma("journal_mode = WAL"); // as every file this store made before
    old.exec(
      "CREATE TABLE jobs (job_id TEXT PRIMARY KEY, subject TEXT NOT NULL, session_id TEXT, status TEXT NOT NULL, created_at INTEGER NOT NULL, last_seq INTEGER NOT NULL, view TEXT NOT NULL)",
    );
    old.prepare("INSERT INTO jobs VALUES ('old', 'alice', NULL, 'completed', 1000, 3, '{}')").run();
    expect(old.pragma("auto_vacuum", { simple: true })).toBe(0);
    old.close();
    const store = createSqliteStore(file);
    try {
      expect(await store.getJob("old")).toBeUndefined();
      await seed(store, "new");
      expect(await store.getJob("new")).toMatchObject({ jobId: "new", status: "pending" });
    } finally {
      await store.close();
    }
    const reopened = new Database(file);
    expect(reopened.pragma("auto_vacuum", { simple: true })).toBe(2);
    expect(reopened.pragma("user_version", { simple: true })).toBeGreaterThan(0);
    reopened.close();
    const again = createSqliteStore(file);
    try {
      expect(await again.getJob("new")).toMatchObject({ jobId: "new" }); // the same schema: kept
    } finally {
      await again.close();
    }
  });
});

describe("a file written before jobs had a currency", () => {
  it("gets the input's currency and locale columns: its jobs read as before (US dollars), new ones keep theirs", async () => {
    const file = nextFile();
    const first = createSqliteStore(file);
    await seed(first, "old");
    await first.close();
    // the inputs table as the schema had it before: no currency, no locale
    const db = new Database(file);
    db.exec("ALTER TABLE inputs DROP COLUMN currency; ALTER TABLE inputs DROP COLUMN locale");
    db.close();
    const store = createSqliteStore(file);
    try {
      const old = await store.readInput("old");
      expect(old).toMatchObject({ occasion: expect.any(String) });
      expect(old?.currency).toBeUndefined();
      const input = { occasion: "연말", budgetPerPerson: 50_000, currency: "KRW" as const, locale: "ko-KR", csv: "x" };
      const created = jobEvent("won", 1, "job.created");
      const fold = applyJobEvents(createJobFold("won"), [created]);
      await store.create({ jobId: "won", owner: ALICE, input, createdAt: Date.now() }, [created], fold);
      expect(await store.readInput("won")).toEqual(input);
    } finally {
      await store.close();
    }
  });
});

describe("a file written before jobs were listed and their follow-ups claimed", () => {
  it("gets the follow-up column and the index by owner in place: its jobs are kept, listed and claimed once", async () => {
    const file = nextFile();
    const first = createSqliteStore(file);
    await seed(first, "old", ["job.started", "job.completed"], 1_000);
    await seed(first, "older", ["job.started"], 500);
    await first.close();
    // the jobs table and its index as the schema had them before
    const db = new Database(file);
    db.exec("DROP INDEX jobs_by_owner; ALTER TABLE jobs DROP COLUMN follow_up");
    db.exec("CREATE INDEX jobs_by_subject ON jobs (subject, created_at)");
    db.close();
    const store = createSqliteStore(file);
    try {
      expect((await store.listJobs("alice", { limit: 10 })).map((j) => j.jobId)).toEqual(["old", "older"]);
      expect(await store.claimFollowUp("old")).toBe(true);
      expect(await store.claimFollowUp("old")).toBe(false);
    } finally {
      await store.close();
    }
    const reopened = new Database(file);
    const indexes = reopened.prepare<[], string>("SELECT name FROM pragma_index_list('jobs')").pluck().all();
    reopened.close();
    expect(indexes).toContain("jobs_by_owner");
    expect(indexes).not.toContain("jobs_by_subject");
  });

  it("gives the follow-up to one claim of 20 made at once through two connections to the same file", async () => {
    const file = nextFile();
    const [a, b] = [createSqliteStore(file), createSqliteStore(file)];
    try {
      await seed(a, "j1", ["job.started", "job.completed"]);
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claimFollowUp("j1")));
      expect(claims.filter(Boolean)).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
