/** The in-memory job store, for tests and single-process use without a disk: SQLite's private in-memory database. */
import type { JobStore } from "../store.js";
import { createSqliteStore } from "./sqlite.js";

/** A store that lives and dies with this process and its `close()`. */
export const createMemoryStore = (): JobStore => createSqliteStore(":memory:");
