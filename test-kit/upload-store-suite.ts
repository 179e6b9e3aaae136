/**
 * The UploadStore contract as one suite that every upload store runs (memory, SQLite, Redis):
 * begin and resume, chunk checks, whole reads only once every chunk is there, the size and digest
 * checked on assembly, owners kept apart, what each upload holds counted for the quota (what it
 * received and room for two chunks more, so a flood of empty uploads never blocks a real one), and
 * the expiry of stalled and of unused uploads by an injected clock (no sleeps).
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  ChunkRejectedError,
  MissingChunksError,
  UploadCorruptError,
  UploadQuotaError,
  type UploadFile,
  type UploadStore,
  type UploadStoreOptions,
} from "../server/files/uploads/upload-store.js";

/** Looks into a store: how many chunks it still keeps for an upload, abandoned or not. */
export type UploadChunksKept = (store: UploadStore, uploadId: string) => Promise<number>;

const CHUNK = 4;
const HOUR = 60 * 60 * 1000;
const STALL = 10 * 60 * 1000;
/** What a begun upload that has sent nothing holds: two chunks. */
const AHEAD = 2 * CHUNK;

/** `text`'s bytes with the name, size and digest to announce them by. */
function fileOf(text: string, name = "staff.csv"): { file: UploadFile; bytes: Buffer; chunk(i: number): Buffer } {
  const bytes = Buffer.from(text);
  const file = { name, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
  return { file, bytes, chunk: (i) => bytes.subarray(i * CHUNK, (i + 1) * CHUNK) };
}

export function describeUploadStore(
  name: string,
  makeStore: (
    options: Required<Pick<UploadStoreOptions, "now" | "chunkBytes" | "abandonedAfterMs" | "stalledAfterMs">>,
  ) => UploadStore,
  chunksKept?: UploadChunksKept,
): void {
  describe(`the ${name} upload store`, () => {
    let store: UploadStore;
    let clock = 1_000_000;
    const open = () => {
      clock = 1_000_000;
      store = makeStore({ now: () => clock, chunkBytes: CHUNK, abandonedAfterMs: HOUR, stalledAfterMs: STALL });
      return store;
    };
    afterEach(async () => store?.close());
    const putAll = async (uploadId: string, f: ReturnType<typeof fileOf>, owner = "alice") => {
      for (let i = 0; i * CHUNK < f.bytes.length; i++) await store.put(owner, uploadId, i, f.chunk(i));
    };

    it("begins an upload cut into chunks, holding none", async () => {
      open();
      const f = fileOf("name,dept\nAda,R&D\n"); // 18 bytes: 5 chunks of 4, the last of 2
      const upload = await store.begin("alice", f.file);
      expect(upload).toMatchObject({
        ...f.file,
        owner: "alice",
        chunkBytes: CHUNK,
        chunks: 5,
        received: [],
        receivedBytes: 0,
        keptUntil: clock + STALL,
      });
      expect(upload.verified).toBe(false);
      expect(upload.uploadId).toMatch(/^upl_[\w-]{20,}$/);
      expect(await store.get("alice", upload.uploadId)).toEqual(upload);
    });

    it("resumes the same file for the same owner, with the chunks it holds; anything else is a new upload", async () => {
      open();
      const f = fileOf("abcdefghij");
      const first = await store.begin("alice", f.file);
      await store.put("alice", first.uploadId, 2, f.chunk(2));
      await store.put("alice", first.uploadId, 0, f.chunk(0));
      const again = await store.begin("alice", f.file);
      expect(again.uploadId).toBe(first.uploadId);
      expect(again.received).toEqual([0, 2]);
      const others = [
        await store.begin("alice", { ...f.file, name: "other.csv" }),
        await store.begin("alice", { ...f.file, size: 11 }),
        await store.begin("alice", { ...f.file, sha256: "0".repeat(64) }),
        await store.begin("bob", f.file),
      ];
      expect(new Set([first.uploadId, ...others.map((u) => u.uploadId)]).size).toBe(5);
      for (const u of others) expect(u.received).toEqual([]);
    });

    it("checks each chunk's index and length, and writes nothing it refuses", async () => {
      open();
      const f = fileOf("abcdefghij"); // chunks 0..2, the last of 2 bytes
      const { uploadId } = await store.begin("alice", f.file);
      await expect(store.put("alice", uploadId, 3, f.chunk(2))).rejects.toThrow(ChunkRejectedError);
      await expect(store.put("alice", uploadId, -1, f.chunk(0))).rejects.toThrow(/out of range.*0 to 2/);
      await expect(store.put("alice", uploadId, 0, Buffer.from("abc"))).rejects.toThrow(/3 bytes; it must have 4/);
      await expect(store.put("alice", uploadId, 2, Buffer.from("ijk"))).rejects.toThrow(/must have 2/);
      expect((await store.get("alice", uploadId))?.received).toEqual([]);
      expect((await store.put("alice", uploadId, 2, f.chunk(2)))?.received).toEqual([2]);
    });

    it("reads the whole file only once every chunk is there, in order whatever order they came in", async () => {
      open();
      const f = fileOf("0123456789ABCDEFGHIJ!");
      const { uploadId } = await store.begin("alice", f.file);
      for (const i of [5, 1, 3]) await store.put("alice", uploadId, i, f.chunk(i));
      const missing = await store.read("alice", uploadId).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(MissingChunksError);
      expect((missing as MissingChunksError).missing).toEqual([0, 2, 4]);
      for (const i of [4, 0, 2]) await store.put("alice", uploadId, i, f.chunk(i));
      expect(Buffer.from((await store.read("alice", uploadId))!)).toEqual(f.bytes);
      expect((await store.get("alice", uploadId))?.verified).toBe(true);
      // read again: the same bytes, still there
      expect(Buffer.from((await store.read("alice", uploadId))!).toString()).toBe("0123456789ABCDEFGHIJ!");
    });

    it("keeps a chunk as it was sent, not the caller's buffer", async () => {
      open();
      const f = fileOf("abcdefgh");
      const { uploadId } = await store.begin("alice", f.file);
      const reused = Buffer.from(f.chunk(0));
      await store.put("alice", uploadId, 0, reused);
      reused.fill(0);
      await store.put("alice", uploadId, 1, f.chunk(1));
      expect(Buffer.from((await store.read("alice", uploadId))!)).toEqual(f.bytes);
    });

    it("drops an upload whose assembled bytes do not match the digest announced", async () => {
      open();
      const f = fileOf("abcdefgh");
      const { uploadId } = await store.begin("alice", f.file);
      await store.put("alice", uploadId, 0, f.chunk(0));
      await store.put("alice", uploadId, 1, Buffer.from("XXXX")); // right length, wrong bytes
      await expect(store.read("alice", uploadId)).rejects.toThrow(UploadCorruptError);
      expect(await store.get("alice", uploadId)).toBeUndefined();
      expect(await store.bytesOf("alice")).toBe(0);
      if (chunksKept) expect(await chunksKept(store, uploadId)).toBe(0);
      // beginning the same file again starts afresh
      const again = await store.begin("alice", f.file);
      expect(again.uploadId).not.toBe(uploadId);
      expect(again.received).toEqual([]);
    });

    it("checks a verified upload again once one of its chunks is sent again", async () => {
      open();
      const f = fileOf("abcdefgh");
      const { uploadId } = await store.begin("alice", f.file);
      await putAll(uploadId, f);
      await store.read("alice", uploadId);
      expect((await store.put("alice", uploadId, 1, Buffer.from("zzzz")))?.verified).toBe(false);
      await expect(store.read("alice", uploadId)).rejects.toThrow(UploadCorruptError);
    });

    it("answers another owner's upload exactly as a missing one", async () => {
      open();
      const f = fileOf("abcdefgh");
      const { uploadId } = await store.begin("alice", f.file);
      await putAll(uploadId, f);
      expect(await store.get("bob", uploadId)).toBeUndefined();
      expect(await store.put("bob", uploadId, 0, f.chunk(0))).toBeUndefined();
      expect(await store.read("bob", uploadId)).toBeUndefined();
      expect(await store.touch("bob", uploadId)).toBe(false);
      expect(await store.drop("bob", uploadId)).toBe(false);
      expect(await store.get("alice", "upl_nope")).toBeUndefined();
      expect(await store.read("alice", "upl_nope")).toBeUndefined();
      expect(Buffer.from((await store.read("alice", uploadId))!)).toEqual(f.bytes);
    });

    it("counts what each upload holds, not what it declared, and refuses past the quota in the same step", async () => {
      open();
      const a = fileOf("a".repeat(10)); // 3 chunks: holds 8 at its start, 4 + 6 after one chunk, 10 whole
      const first = await store.begin("alice", a.file, 20);
      await store.begin("bob", fileOf("x".repeat(15)).file, 20);
      expect(await store.bytesOf("alice")).toBe(AHEAD);
      expect((await store.put("alice", first.uploadId, 0, a.chunk(0), 20))?.receivedBytes).toBe(4);
      expect(await store.bytesOf("alice")).toBe(10);
      const c = fileOf("c".repeat(11)); // holds 8 at its start: 10 + 8 fits 20
      const second = await store.begin("alice", c.file, 20);
      expect(await store.bytesOf("alice")).toBe(18);
      const refused = await store.begin("alice", fileOf("d".repeat(30)).file, 20).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(UploadQuotaError);
      expect(refused).toMatchObject({ keptBytes: 18, wantedBytes: AHEAD });
      // a chunk past the room is refused and not kept; a resume takes no more room
      const past = await store.put("alice", second.uploadId, 0, c.chunk(0), 20).catch((e: unknown) => e);
      expect(past).toMatchObject({ keptBytes: 10, wantedBytes: 11 });
      expect((await store.get("alice", second.uploadId))?.received).toEqual([]);
      // a chunk sent again takes no more room, so it is taken even with none left
      expect((await store.put("alice", first.uploadId, 0, a.chunk(0), 0))?.received).toEqual([0]);
      expect((await store.begin("alice", a.file, 10)).uploadId).toBe(first.uploadId);
      // two begins at once cannot both take the last room
      const racing = await Promise.allSettled([
        store.begin("carol", fileOf("1".repeat(6)).file, 10),
        store.begin("carol", fileOf("2".repeat(6)).file, 10),
      ]);
      expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await store.drop("alice", first.uploadId)).toBe(true);
      expect(await store.bytesOf("alice")).toBe(AHEAD);
      expect(await store.get("alice", first.uploadId)).toBeUndefined();
    });

    it("never lets a flood of empty uploads block a real one", async () => {
      open();
      const declared = 100 * CHUNK;
      const quota = 32 * declared; // the flood's declared sizes would take it all
      for (let i = 0; i < 32; i++) {
        await store.begin("anonymous", { name: `x${i}.csv`, size: declared, sha256: `${i}`.padStart(64, "f") }, quota);
      }
      expect(await store.bytesOf("anonymous")).toBe(32 * AHEAD);
      const real = fileOf("r".repeat(declared));
      const { uploadId } = await store.begin("anonymous", real.file, quota);
      for (let i = 0; i < 100; i++) await store.put("anonymous", uploadId, i, real.chunk(i), quota);
      expect(Buffer.from((await store.read("anonymous", uploadId))!)).toEqual(real.bytes);
      // ten minutes on, the flood is gone and only the real file holds room
      clock += STALL;
      expect(await store.bytesOf("anonymous")).toBe(declared);
    });

    it("drops an unfinished upload ten minutes after its latest chunk, however often it is begun again", async () => {
      open();
      const f = fileOf("abcdefgh");
      const idle = await store.begin("alice", f.file);
      await store.put("alice", idle.uploadId, 0, f.chunk(0));
      const busy = await store.begin("alice", fileOf("12345678").file);
      clock += STALL - 1;
      expect((await store.begin("alice", f.file)).uploadId).toBe(idle.uploadId); // a resume, no progress
      expect(await store.touch("alice", idle.uploadId)).toBe(true);
      await store.put("alice", busy.uploadId, 0, Buffer.from("1234"));
      clock += 1; // ten minutes after idle's last chunk
      expect(await store.get("alice", idle.uploadId)).toBeUndefined();
      expect(await store.put("alice", idle.uploadId, 1, f.chunk(1))).toBeUndefined();
      expect(await store.bytesOf("alice")).toBe(8);
      // beginning it again is a new upload with nothing held
      const fresh = await store.begin("alice", f.file);
      expect(fresh.uploadId).not.toBe(idle.uploadId);
      expect(fresh.received).toEqual([]);
      clock += STALL;
      expect(await store.sweep()).toBeGreaterThanOrEqual(2);
      expect(await store.sweep()).toBe(0);
      expect(await store.bytesOf("alice")).toBe(0);
      if (chunksKept) {
        expect(await chunksKept(store, idle.uploadId)).toBe(0);
        expect(await chunksKept(store, busy.uploadId)).toBe(0);
      }
    });

    it("keeps a whole upload an hour after its last use, then forgets it", async () => {
      open();
      const f = fileOf("abcdefgh");
      const { uploadId } = await store.begin("alice", f.file);
      await putAll(uploadId, f);
      clock += STALL + 1;
      expect(Buffer.from((await store.read("alice", uploadId))!)).toEqual(f.bytes);
      clock += HOUR - 1;
      expect(await store.touch("alice", uploadId)).toBe(true); // a job uses it
      clock += HOUR - 1;
      expect((await store.begin("alice", f.file)).uploadId).toBe(uploadId);
      clock += HOUR;
      expect(await store.sweep()).toBe(1);
      expect(await store.get("alice", uploadId)).toBeUndefined();
      if (chunksKept) expect(await chunksKept(store, uploadId)).toBe(0);
    });

    it("keeps an upload whose chunks keep coming, however long it takes in all", async () => {
      open();
      const f = fileOf("abcdefghijkl");
      const { uploadId } = await store.begin("alice", f.file);
      for (let i = 0; i < 3; i++) {
        clock += STALL - 1;
        await store.put("alice", uploadId, i, f.chunk(i));
      }
      clock += HOUR - 1;
      expect(await store.sweep()).toBe(0);
      expect(Buffer.from((await store.read("alice", uploadId))!)).toEqual(f.bytes);
    });

    it("takes a one-chunk file and a file of whole chunks", async () => {
      open();
      for (const text of ["x", "abcd", "abcdefgh"]) {
        const f = fileOf(text);
        const { uploadId, chunks } = await store.begin("alice", f.file);
        expect(chunks).toBe(Math.ceil(text.length / CHUNK));
        await putAll(uploadId, f);
        expect(Buffer.from((await store.read("alice", uploadId))!).toString()).toBe(text);
      }
    });
  });
}
