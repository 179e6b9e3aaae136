/**
 * A durable store named by the arguments a process is given, `sqlite <file>` or
 * `redis <url> <prefix>`, so that the durable-store suite and the child process it kills open the
 * very same store.
 */
import type { JobStore } from "../../server/jobs/store.js";
import { createRedisStore } from "../../server/jobs/stores/redis.js";
import { createSqliteStore } from "../../server/jobs/stores/sqlite.js";

/** Where a durable store keeps its jobs, as process arguments. */
export type StorePlace = ["sqlite", file: string] | ["redis", url: string, keyPrefix: string];

/** Opens the store at `place` on a connection of its own, as another process would. */
export function openStoreAt(place: readonly string[]): JobStore {
  const [kind, where, prefix] = place;
  if (kind === "sqlite" && where) return createSqliteStore(where);
  if (kind === "redis" && where && prefix) return createRedisStore({ url: where, keyPrefix: prefix });
  throw new Error(`"${place.join(" ")}" is not a store: give sqlite <file> or redis <url> <prefix>.`);
}
