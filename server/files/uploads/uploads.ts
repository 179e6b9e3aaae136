/**
 * Chunked uploads as the tools see them: the size checked before a byte is sent, uploads counted with
 * the subject's jobs against the stored-bytes quota. An upload goes when dropped, when a job that used
 * it completes, or when it expires (a periodic sweep frees it). Refusals are in upload-refusals.ts.
 */
import type { z } from "zod/mini";
import { FILE_LIMITS, type BeginUploadInput, type PutChunkInput, type UploadState } from "../../../shared/files.js";
import type { Caller } from "../../jobs/caller.js";
import type { JobService } from "../../jobs/job-service.js";
import { ok, type Outcome } from "../../outcomes.js";
import { systemTimers, type Timers } from "../../jobs/timers.js";
import { decodeChunk, noRoom, outcomeOf, tooLarge, unknownUpload } from "./upload-refusals.js";
import { UploadQuotaError, type Upload, type UploadStore } from "./upload-store.js";

export type UploadsOptions = {
  store: UploadStore;
  /** For the quota, and to hear when a job that used an upload completes. */
  jobs: Pick<JobService, "limits" | "onEvent" | "getEvents">;
  /** Bytes the subject's jobs keep (the job store's usage); none by default. */
  jobBytes?: (subject: string) => Promise<number>;
  timers?: Timers;
  /** Told of failures no caller can be answered with (a sweep that failed). */
  onError?: (error: unknown, context: string) => void;
};

export type Uploads = {
  begin(args: z.infer<typeof BeginUploadInput>, caller: Caller): Promise<Outcome<UploadState>>;
  putChunk(args: z.infer<typeof PutChunkInput>, caller: Caller): Promise<Outcome<UploadState>>;
  /** The whole file, checked. */
  read(uploadId: string, caller: Caller): Promise<Outcome<{ uploadId: string; name: string; bytes: Uint8Array }>>;
  /** False when the upload was unknown (or someone else's: alike). */
  drop(uploadId: string, caller: Caller): Promise<Outcome<boolean>>;
  /** The upload feeds job `jobId`: it goes when that job completes. */
  usedBy(uploadId: string, jobId: string, caller: Caller): Promise<void>;
  close(): Promise<void>;
};

/** How often expired uploads are deleted (they read as gone at once). */
const SWEEP_INTERVAL_MS = 60 * 1000;

const stateOf = (u: Upload): UploadState => ({
  uploadId: u.uploadId,
  chunkBytes: u.chunkBytes,
  chunks: u.chunks,
  received: u.received,
  complete: u.received.length === u.chunks,
});

export function createUploads({
  store,
  jobs,
  jobBytes = async () => 0,
  timers = systemTimers,
  onError = () => {},
}: UploadsOptions): Uploads {
  const maxStored = () => jobs.limits.maxStoredBytesPerSubject;
  /** `work`, its failure told to `onError` rather than thrown. */
  const told = (work: Promise<unknown>, context: string) => work.catch((error: unknown) => onError(error, context));
  // a failed drop is told; the upload goes at the sweep once it expires
  const drop = (owner: string, uploadId: string) => told(store.drop(owner, uploadId), `dropping upload ${uploadId}`);
  // uploads feeding jobs not yet ended, by job id; one stays after a failed or canceled job, for "Try again"
  const feeding = new Map<string, { owner: string; uploadId: string }>();
  const unlisten = jobs.onEvent(({ event }) => {
    const used = feeding.get(event.jobId);
    if (used === undefined || !["job.completed", "job.failed", "job.canceled"].includes(event.type)) return;
    feeding.delete(event.jobId);
    if (event.type === "job.completed") void drop(used.owner, used.uploadId);
  });
  const sweeper = timers.setInterval(() => void told(store.sweep(), "deleting abandoned uploads"), SWEEP_INTERVAL_MS);
  sweeper.unref();

  /** `run`, with the store's refusals and outages as outcomes. */
  const answer = <T>(uploadId: string, run: () => Promise<Outcome<T>>): Promise<Outcome<T>> =>
    run().catch((error: unknown) => outcomeOf<T>(error, uploadId));

  /** A store write within the room the subject's jobs leave; `id` names the upload in a refusal. */
  async function withinRoom(subject: string, id: string, write: (maxBytes: number) => Promise<Upload | undefined>) {
    let jobsKeep = 0;
    try {
      jobsKeep = await jobBytes(subject);
      const upload = await write(maxStored() - jobsKeep);
      return upload === undefined ? unknownUpload<UploadState>(id) : ok(stateOf(upload));
    } catch (error) {
      if (error instanceof UploadQuotaError) return noRoom<UploadState>(error, jobsKeep, maxStored());
      return outcomeOf<UploadState>(error, id);
    }
  }

  return {
    async begin({ name, size, sha256 }, { subject }) {
      if (size > FILE_LIMITS.maxFileBytes) return tooLarge(size);
      return withinRoom(subject, name, (maxBytes) => store.begin(subject, { name, size, sha256 }, maxBytes));
    },

    async putChunk({ uploadId, index, data }, { subject }) {
      const decoded = decodeChunk(data, index);
      if (!decoded.ok) return decoded;
      return withinRoom(subject, uploadId, (maxBytes) => store.put(subject, uploadId, index, decoded.value, maxBytes));
    },

    drop: (uploadId, { subject }) => answer(uploadId, async () => ok(await store.drop(subject, uploadId))),

    read: (uploadId, { subject }) =>
      answer(uploadId, async () => {
        const upload = await store.get(subject, uploadId);
        if (upload === undefined) return unknownUpload(uploadId);
        const bytes = await store.read(subject, uploadId);
        return bytes === undefined ? unknownUpload(uploadId) : ok({ uploadId, name: upload.name, bytes });
      }),

    async usedBy(uploadId, jobId, caller) {
      feeding.set(jobId, { owner: caller.subject, uploadId });
      await told(store.touch(caller.subject, uploadId), `touching upload ${uploadId}`);
      // a job quick enough to complete before it was noted here: its completion went unheard
      const job = await jobs.getEvents({ jobId, afterSeq: 0, waitMs: 0, limit: 1 }, caller);
      if (job.ok && job.value.status === "completed" && feeding.delete(jobId)) await drop(caller.subject, uploadId);
    },

    async close() {
      timers.clear(sweeper);
      unlisten();
      await store.close();
    },
  };
}
