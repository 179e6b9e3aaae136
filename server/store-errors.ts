/**
 * The errors every store throws, whatever keeps its data; callers answer by the class, never by
 * what the storage underneath called the fault. And a storage fault in words, for the operator.
 */

/** Thrown by a store that cannot reach its storage: nothing was written; the same call may succeed later. */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

/** Thrown by a write that found no room: the storage is full, or the file at its size limit. */
export class StorageFullError extends Error {
  constructor(options?: ErrorOptions) {
    super(
      "the server's job storage is full, so nothing more can be saved until old jobs expire or its operator frees space",
      options,
    );
  }
}

/** Node's errno codes and better-sqlite3's result codes that say the storage itself is at fault. */
const PROBLEMS: Record<string, string> = {
  EEXIST: "DATA_DIR is a file, not a directory",
  ENOTDIR: "a part of DATA_DIR is a file, not a directory",
  EACCES: "this user may not write there",
  EPERM: "this user may not write there",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
  SQLITE_CANTOPEN: "the database file cannot be created or opened there",
  SQLITE_READONLY: "the database file is read-only",
  SQLITE_NOTADB: "the file is not a SQLite database",
  SQLITE_CORRUPT: "the database file is damaged",
  SQLITE_FULL: "the disk is full",
  SQLITE_IOERR: "the disk refused a read or a write",
  SQLITE_PERM: "this user may not write there",
};

/** The errno, SQLite result code, network or HTTP code `error` carries, if any, as text. */
export function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  return typeof code === "string" || typeof code === "number" ? String(code) : undefined;
}

/** Why the storage failed, when `error` is a storage failure (an errno or a SQLite result code). */
export function storageProblem(error: unknown): string | undefined {
  if (error instanceof StorageFullError) return PROBLEMS.SQLITE_FULL;
  const code = codeOf(error);
  if (code === undefined) return undefined;
  // extended result codes name their family first: SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED...
  const family = Object.keys(PROBLEMS).find((known) => code === known || code.startsWith(`${known}_`));
  return family && PROBLEMS[family];
}

/** Whether `error` says the storage had no room: SQLite's full disk or file cap, or the disk's own ENOSPC. */
export const isStorageFull = (error: unknown): boolean =>
  error instanceof StorageFullError || codeOf(error) === "SQLITE_FULL" || codeOf(error) === "ENOSPC";

export function asStorageFull(error: unknown): unknown {
  return isStorageFull(error) && !(error instanceof StorageFullError) ? new StorageFullError({ cause: error }) : error;
}
