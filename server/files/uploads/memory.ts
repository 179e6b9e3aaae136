/**
 * Uploads in memory: for tests and for a server without a disk. The SQLite store on a database
 * that lives in memory, so the two keep one set of rules.
 */
import { createSqliteUploadStore } from "./sqlite.js";
import type { UploadStore, UploadStoreOptions } from "./upload-store.js";

export const createMemoryUploadStore = (options?: UploadStoreOptions): UploadStore =>
  createSqliteUploadStore(":memory:", options);
