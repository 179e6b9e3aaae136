/**
 * Uploads in memory (STORE=memory, and tests): the SQLite upload store on a private in-memory
 * database, so one body of code keeps the store's rules; nothing outlives the process.
 */
import { createSqliteUploadStore } from "./sqlite.js";
import type { UploadStore, UploadStoreOptions } from "./upload-store.js";

export const createMemoryUploadStore = (options?: UploadStoreOptions): UploadStore =>
  createSqliteUploadStore(":memory:", options);
