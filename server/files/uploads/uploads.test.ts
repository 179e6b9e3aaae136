/**
 * Uploads as the tools see them, over the memory store and a real job service, on a fake clock
 * that runs the sweep too: a flood of empty begins holds two chunks each and never blocks a real
 * file, the sweep frees the flood ten minutes on, a dropped upload is gone at once, and a refusal
 * for want of room sends the person to drop uploads (to delete_job only when analyses hold room).
 */
import { createHash } from "node:crypto";
import { FILE_LIMITS } from "../../../shared/files.js";
import { matchGifts } from "../../gifts/matcher.js";
import { createJobService } from "../../jobs/job-service.js";
import { createMemoryStore } from "../../jobs/stores/memory.js";
import { FakeClock } from "../../../test-kit/jobs/fake-clock.js";
import { createMemoryUploadStore } from "./sqlite.js";
import type { UploadStore } from "./upload-store.js";
import { createUploads } from "./uploads.js";

const MB = 1024 * 1024;
const caller = { subject: "anonymous" };
const digest = (text: string) => createHash("sha256").update(text).digest("hex");

function setUp(maxStoredMB: number, jobBytes = 0) {
  const clock = new FakeClock(1_000_000);
  const jobs = createJobService({
    store: createMemoryStore(),
    match: matchGifts,
    limits: { maxStoredBytesPerSubject: maxStoredMB * MB },
  });
  const store = createMemoryUploadStore({ now: clock.now });
  let sweeps = 0;
  const counted: UploadStore = { ...store, sweep: () => (sweeps++, store.sweep()) };
  const uploads = createUploads({ store: counted, jobs, jobBytes: async () => jobBytes, timers: clock });
  return {
    clock,
    store,
    uploads,
    sweeps: () => sweeps,
    close: async () => {
      await uploads.close();
      await jobs.close();
    },
  };
}

it("holds two chunks for each empty begin, never blocks a real file, and sweeps the flood ten minutes on", async () => {
  const { clock, store, uploads, sweeps, close } = setUp(512);
  try {
    for (let i = 0; i < 32; i++) {
      const began = await uploads.begin(
        { name: `x${i}.xlsx`, size: FILE_LIMITS.maxFileBytes, sha256: digest(String(i)) },
        caller,
      );
      expect(began.ok).toBe(true);
    }
    expect(await store.bytesOf("anonymous")).toBe(32 * 2 * FILE_LIMITS.chunkBytes);
    const bytes = Buffer.alloc(FILE_LIMITS.maxFileBytes, 0x61);
    const real = await uploads.begin(
      { name: "real.csv", size: bytes.length, sha256: digest(bytes.toString()) },
      caller,
    );
    expect(real.ok).toBe(true);
    await clock.advance(FILE_LIMITS.stalledAfterMs - 1);
    // sent just before the flood expires: the real upload lives on
    const put = await uploads.putChunk(
      {
        uploadId: real.ok ? real.value.uploadId : "",
        index: 0,
        data: bytes.subarray(0, FILE_LIMITS.chunkBytes).toString("base64"),
      },
      caller,
    );
    expect(put.ok).toBe(true);
    const before = sweeps();
    await clock.advance(60_000);
    expect(sweeps()).toBeGreaterThan(before);
    expect(await store.sweep()).toBe(0); // the timer's sweep took them
    expect(await store.bytesOf("anonymous")).toBe(3 * FILE_LIMITS.chunkBytes);
  } finally {
    await close();
  }
});

it("refuses past the room with what frees it, and drops an upload on request", async () => {
  const { uploads, close } = setUp(1);
  try {
    const file = (n: number) => ({ name: `f${n}.csv`, size: FILE_LIMITS.maxFileBytes, sha256: digest(String(n)) });
    const first = await uploads.begin(file(1), caller);
    await uploads.begin(file(2), caller);
    const refused = await uploads.begin(file(3), caller);
    expect(!refused.ok && refused.error).toMatchObject({
      code: "quota_exceeded",
      message: "Your uploads hold 1 MB, and this upload needs 512 KB; the limit is 1 MB.",
      hint: expect.stringMatching(/^Drop uploads you no longer need with drop_file_upload .* 10 minutes after/),
    });
    expect(!refused.ok && refused.error.hint).not.toMatch(/delete_job/);
    const uploadId = first.ok ? first.value.uploadId : "";
    expect(await uploads.drop(uploadId, caller)).toEqual({ ok: true, value: true });
    expect(await uploads.drop(uploadId, caller)).toEqual({ ok: true, value: false });
    expect((await uploads.begin(file(3), caller)).ok).toBe(true);
  } finally {
    await close();
  }
});

it("names delete_job only when analyses hold some of the room", async () => {
  const { uploads, close } = setUp(1, 700 * 1024);
  try {
    const refused = await uploads.begin({ name: "f.csv", size: MB, sha256: digest("f") }, caller);
    expect(!refused.ok && refused.error.message).toBe(
      "Your analyses keep 700 KB, and this upload needs 512 KB; the limit is 1 MB.",
    );
    expect(!refused.ok && refused.error.hint).toMatch(/delete_job/);
  } finally {
    await close();
  }
});
