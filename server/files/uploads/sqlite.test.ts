/**
 * The SQLite upload store on real files in a temporary directory, against the upload store
 * contract, looking into the file (on a connection of its own) for chunks that must be gone; and
 * uploads that outlive the store that took them, as across a restart.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { describeUploadStore, type UploadChunksKept } from "../../../test-kit/upload-store-suite.js";
import { createSqliteUploadStore } from "./sqlite.js";
import type { UploadStore } from "./upload-store.js";

const dir = mkdtempSync(join(tmpdir(), "giftgenius-uploads-"));
let files = 0;
const nextFile = () => join(dir, `db-${++files}`, "uploads.sqlite");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileOf = new WeakMap<UploadStore, string>();
const chunksKept: UploadChunksKept = async (store, uploadId) => {
  const db = new Database(fileOf.get(store));
  try {
    return db
      .prepare<[string], number>("SELECT count(*) FROM upload_chunks WHERE upload_id = ?")
      .pluck()
      .get(uploadId)!;
  } finally {
    db.close();
  }
};
describeUploadStore(
  "sqlite",
  (options) => {
    const file = nextFile();
    const store = createSqliteUploadStore(file, options);
    fileOf.set(store, file);
    return store;
  },
  chunksKept,
);

it("keeps an upload across a restart: a new store on the same file resumes it", async () => {
  const file = nextFile();
  const bytes = Buffer.from("name\nAda\nGrace\n");
  const announced = { name: "s.csv", size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
  const first = createSqliteUploadStore(file, { chunkBytes: 8 });
  const { uploadId } = await first.begin("alice", announced);
  await first.put("alice", uploadId, 0, bytes.subarray(0, 8));
  await first.close();
  const second = createSqliteUploadStore(file, { chunkBytes: 8 });
  try {
    const resumed = await second.begin("alice", announced);
    expect(resumed).toMatchObject({ uploadId, received: [0] });
    await second.put("alice", uploadId, 1, bytes.subarray(8));
    expect(Buffer.from((await second.read("alice", uploadId))!)).toEqual(bytes);
  } finally {
    await second.close();
  }
});

it("opens a file made before uploads were counted by what they hold, and resumes its uploads", async () => {
  const file = nextFile();
  mkdirSync(dirname(file), { recursive: true });
  const old = new Database(file); // the tables as an earlier version left them
  old.exec(`
    CREATE TABLE uploads (
      upload_id TEXT PRIMARY KEY, owner TEXT NOT NULL, name TEXT NOT NULL, size INTEGER NOT NULL,
      sha256 TEXT NOT NULL, chunk_bytes INTEGER NOT NULL, chunks INTEGER NOT NULL,
      verified INTEGER NOT NULL DEFAULT 0, touched_at INTEGER NOT NULL);
    CREATE UNIQUE INDEX uploads_by_file ON uploads (owner, name, size, sha256);
    CREATE INDEX uploads_by_touch ON uploads (touched_at);
    CREATE TABLE upload_chunks (
      upload_id TEXT NOT NULL, idx INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (upload_id, idx));`);
  const bytes = Buffer.from("name\nAda\nGrace\n");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  old
    .prepare("INSERT INTO uploads VALUES ('upl_old', 'alice', 's.csv', ?, ?, 8, 2, 0, ?)")
    .run(bytes.length, sha256, Date.now());
  old.prepare("INSERT INTO upload_chunks VALUES ('upl_old', 0, ?)").run(bytes.subarray(0, 8));
  old.close();
  const store = createSqliteUploadStore(file, { chunkBytes: 8 });
  try {
    expect(await store.begin("alice", { name: "s.csv", size: bytes.length, sha256 })).toMatchObject({
      uploadId: "upl_old",
      received: [0],
      receivedBytes: 8,
    });
    expect(await store.bytesOf("alice")).toBe(bytes.length);
  } finally {
    await store.close();
  }
});
