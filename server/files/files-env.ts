/**
 * Staff files as the configuration sets them up: uploads kept beside the jobs (DATA_DIR/uploads.sqlite,
 * memory, or Redis), counted with the jobs' bytes for the quota, and FILE_DOWNLOAD_HOSTS.
 */
import { resolve } from "node:path";
import type { Config } from "../config.js";
import type { JobService } from "../jobs/job-service.js";
import type { JobStore } from "../jobs/store.js";
import { createDownload, type DownloadOptions } from "./download.js";
import { createStaffFiles, type StaffFiles } from "./staff-files.js";
import { createRedisUploadStore } from "./uploads/redis.js";
import { createMemoryUploadStore, createSqliteUploadStore } from "./uploads/sqlite.js";
import type { UploadStore } from "./uploads/upload-store.js";
import { createUploads, type UploadsOptions } from "./uploads/uploads.js";

export type FilesSetup = {
  /** The app that opens the store closes it. */
  openStore(): UploadStore;
  /** Bytes a subject's jobs keep, counted with its uploads against the quota. */
  jobBytes?: UploadsOptions["jobBytes"];
  downloadHosts: readonly string[];
};

/** The setup the configuration describes, beside `jobStore` (whose usage the quota counts). */
export function filesFromConfig(config: Config, jobStore: JobStore): FilesSetup {
  const jobBytes = async (subject: string) => (await jobStore.usage(subject, Date.now())).bytes;
  const openStore = (): UploadStore => {
    if (config.store === "memory") return createMemoryUploadStore();
    if (config.store === "redis") return createRedisUploadStore(config.redis);
    return createSqliteUploadStore(resolve(config.dataDir, "uploads.sqlite"));
  };
  return { openStore, jobBytes, downloadHosts: config.fileDownloadHosts };
}

export type StaffFilesOptions = Pick<DownloadOptions, "extraOrigins" | "onNotice"> & Pick<UploadsOptions, "onError">;

/** The staff files of `jobs` (by default: uploads in memory, no download hosts). */
export function openStaffFiles(
  jobs: JobService,
  setup: FilesSetup = { openStore: () => createMemoryUploadStore(), downloadHosts: [] },
  { extraOrigins, onError, onNotice }: StaffFilesOptions = {},
): StaffFiles {
  return createStaffFiles({
    uploads: createUploads({ store: setup.openStore(), jobs, jobBytes: setup.jobBytes, onError }),
    download: createDownload({ hosts: setup.downloadHosts, extraOrigins, onNotice }),
    limits: jobs.limits,
  });
}
