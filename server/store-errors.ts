/**
 * The errors every store throws, whatever keeps its data: jobs, sessions, uploads and the Redis
 * connection under them all. Callers answer by the class, never by what the storage underneath
 * called the fault.
 */

/**
 * Thrown by a store that cannot reach its storage (a Redis that is down): nothing was written, and
 * the same call may succeed once the store is back.
 */
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
