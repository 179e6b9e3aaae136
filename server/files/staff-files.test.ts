/**
 * An upload read by several callers at once: previews of one upload asked for together share one
 * reading of its bytes (the reader, counted, runs once), while another reading choice is a read of
 * its own; and a read that ended is not kept, so a later preview reads again.
 */
import { createHash } from "node:crypto";
import { staffXlsx } from "../../test-kit/staff-files.js";
import { matchGifts } from "../gifts/matcher.js";
import { createJobService } from "../jobs/job-service.js";
import { createMemoryStore } from "../jobs/stores/memory.js";
import { createDownload } from "./download.js";
import { readStaffFile } from "./read/staff-file.js";
import { createStaffFiles } from "./staff-files.js";
import { createMemoryUploadStore } from "./uploads/memory.js";
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
