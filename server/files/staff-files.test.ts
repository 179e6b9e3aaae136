/**
 * An upload read by several callers at once: previews of one upload asked for together share one
 * reading of its bytes (the reader, counted, runs once), while another reading choice is a read of
 * its own; and a read that ended is not kept, so a later preview reads again. The gate on reads:
 * at most so many at once in the process (the rest wait their turn, in order), and a subject past
 * its own bound refused with a sentence, not queued.
 */
import { createHash } from "node:crypto";
import { staffXlsx } from "../../test-kit/staff-files.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { ok } from "../outcomes.js";
import { createDownload } from "./download.js";
import { readStaffFile } from "./read/staff-file.js";
import { createReadGate, createStaffFiles } from "./staff-files.js";
import { createMemoryUploadStore } from "./uploads/sqlite.js";
import { createUploads } from "./uploads/uploads.js";

const caller = { subject: "hr@example.com" };

async function setup() {
  const jobs = createJobService({ store: createMemoryStore(), match: matchGifts });
  const uploads = createUploads({ store: createMemoryUploadStore(), jobs });
  let reads = 0;
  const files = createStaffFiles({
    uploads,
    download: createDownload({ hosts: [] }),
    limits: jobs.limits,
    read: (...args) => {
      reads++;
      return readStaffFile(...args);
    },
  });
  const rows = [["이름", "관심사"], ...Array.from({ length: 3_000 }, (_, i) => [`김민준${i}`, "커피"])];
  const bytes = await staffXlsx(rows, { before: ["안내"] });
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const begun = await uploads.begin({ name: "직원.xlsx", size: bytes.length, sha256 }, caller);
  if (!begun.ok) throw new Error(begun.error.message);
  const { uploadId, chunkBytes, chunks } = begun.value;
  for (let index = 0; index < chunks; index++) {
    const data = Buffer.from(bytes.subarray(index * chunkBytes, (index + 1) * chunkBytes)).toString("base64");
    const put = await uploads.putChunk({ uploadId, index, data }, caller);
    if (!put.ok) throw new Error(put.error.message);
  }
  return { files, uploadId, reads: () => reads, close: () => files.close() };
}

describe("createStaffFiles", () => {
  it("shares one read among concurrent previews of one upload", async () => {
    const { files, uploadId, reads, close } = await setup();
    try {
      const previews = await Promise.all(Array.from({ length: 5 }, () => files.preview(uploadId, {}, caller)));
      expect(reads()).toBe(1);
      for (const p of previews)
        expect(p).toMatchObject({ ok: true, value: { uploadId, sheet: "Staff", people: 3_000 } });
      // another choice is another read; a finished read is not kept
      const guide = files.preview(uploadId, { sheet: "안내" }, caller);
      const again = files.preview(uploadId, {}, caller);
      await Promise.all([guide, again]);
      expect(reads()).toBe(3);
    } finally {
      await close();
    }
  });
});

/** A read that ends when `release` is called. */
function held() {
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  return { release, read: async () => (await done, ok("read")) };
}

describe("createReadGate", () => {
  it("runs two reads at once and starts a third when one ends", async () => {
    const gate = createReadGate({ readsAtOnce: 2, readsPerSubject: 5 });
    const started: string[] = [];
    const reads = ["a", "b", "c"].map((name) => ({ name, ...held() }));
    const results = reads.map((r) =>
      gate("someone", () => {
        started.push(r.name);
        return r.read();
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(["a", "b"]);
    reads[0].release();
    await results[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(["a", "b", "c"]);
    reads[1].release();
    reads[2].release();
    expect(await Promise.all(results)).toEqual([ok("read"), ok("read"), ok("read")]);
  });

  it("refuses a subject's read past its bound, and takes it again once one ends", async () => {
    const gate = createReadGate({ readsAtOnce: 4, readsPerSubject: 1 });
    const first = held();
    const running = gate("anna", first.read);
    expect(await gate("anna", async () => ok("second"))).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    expect(await gate("ben", async () => ok("other"))).toEqual(ok("other"));
    first.release();
    await running;
    expect(await gate("anna", async () => ok("again"))).toEqual(ok("again"));
  });
});
