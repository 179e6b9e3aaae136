/**
 * A staff file, an upload or a host's file by URL, read by one reader into the table a job takes.
 * Reads pass a gate, and reads of one upload asked for while one is under way share it.
 */
import type { z } from "zod/mini";
import type { HostFileSchema, Reading, StaffPreview } from "../../shared/files.js";
import type { Caller } from "../jobs/caller.js";
import type { JobLimits } from "../limits.js";
import { fail, ok, type Outcome } from "../outcomes.js";
import type { Download } from "./download.js";
import { isZip, readStaffFile } from "./read/staff-file.js";
import type { StaffTable } from "./read/table.js";
import { READ_LIMITS } from "./read/xlsx/read-limits.js";
import type { Uploads } from "./uploads/uploads.js";

export type StaffFiles = ReturnType<typeof createStaffFiles>;

type HostFile = z.infer<typeof HostFileSchema>;

/** The name to read a host's file by: its own, or one whose extension its bytes suggest. */
function hostFileName({ file_name, file_id }: HostFile, bytes: Uint8Array): string {
  if (file_name) return file_name;
  return `${file_id.replace(/[^\w.-]/g, "_") || "staff"}.${isZip(bytes) ? "xlsx" : "csv"}`;
}

export function createStaffFiles({
  uploads,
  download,
  limits,
  read = readStaffFile,
}: {
  uploads: Uploads;
  download: Download;
  limits: JobLimits;
  /** The reader (tests count its calls). */
  read?: typeof readStaffFile;
}) {
  const gate = createReadGate(READ_LIMITS);
  const reading = new Map<string, Promise<Outcome<StaffTable>>>(); // under way, by subject, upload and reading
  async function readUpload(uploadId: string, choices: Reading, caller: Caller): Promise<Outcome<StaffTable>> {
    const file = await uploads.read(uploadId, caller);
    if (!file.ok) return file;
    const table = await gate(caller.subject, () => read(file.value.bytes, file.value.name, choices, limits));
    return table.ok ? ok({ ...table.value, preview: { ...table.value.preview, uploadId } }) : table;
  }
  function fromUpload(uploadId: string, choices: Reading, caller: Caller): Promise<Outcome<StaffTable>> {
    const key = JSON.stringify([caller.subject, uploadId, choices]);
    const under = reading.get(key);
    if (under !== undefined) return under;
    const started = readUpload(uploadId, choices, caller).finally(() => reading.delete(key));
    reading.set(key, started);
    return started;
  }
  return {
    uploads,
    fromUpload,
    async preview(uploadId: string, choices: Reading, caller: Caller): Promise<Outcome<StaffPreview>> {
      const table = await fromUpload(uploadId, choices, caller);
      return table.ok ? ok(table.value.preview) : table;
    },
    /** `signal` ends the download. */
    async fromHost(file: HostFile, choices: Reading, signal: AbortSignal, caller: Caller) {
      const got = await download(file.download_url, signal);
      if (!got.ok) return got;
      const name = hostFileName(file, got.value.bytes);
      return gate(caller.subject, () => read(got.value.bytes, name, choices, limits));
    },
    close: (): Promise<void> => uploads.close(),
  };
}

/** Reading a workbook takes memory and CPU: a few reads at a time, a few per subject, running or waiting. */
export function createReadGate({ readsAtOnce, readsPerSubject }: { readsAtOnce: number; readsPerSubject: number }) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const bySubject = new Map<string, number>();
  return async <T>(subject: string, read: () => Promise<Outcome<T>>): Promise<Outcome<T>> => {
    const mine = bySubject.get(subject) ?? 0;
    if (mine >= readsPerSubject) {
      return fail(
        "rate_limited",
        `${mine} of your files are being read already; a file is read when one of them is done.`,
        "Wait for the previews or analyses already asked for, then ask again.",
      );
    }
    bySubject.set(subject, mine + 1);
    // a wait in line never fails, so the slot and the subject's count are given back in one place
    if (running < readsAtOnce) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await read();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running--;
      else next(); // the slot passes to the next in line
      const left = (bySubject.get(subject) ?? 1) - 1;
      if (left === 0) bySubject.delete(subject);
      else bySubject.set(subject, left);
    }
  };
}
