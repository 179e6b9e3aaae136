/**
 * The job store in memory (STORE=memory, and tests): the SQLite store on a private in-memory
 * database, so one body of code keeps the store's rules; nothing outlives the process.
 */
import type { JobStore } from "../store.js";
import { createSqliteStore } from "./sqlite.js";

/** Creates an empty store that lives as long as the process, or until it is closed. */
export const createMemoryStore = (): JobStore => createSqliteStore(":memory:");
