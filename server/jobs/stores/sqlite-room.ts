/**
 * How the SQLite store gets through a full disk: writes fail with StorageFullError and mark the
 * store full for /healthz; deletes still work, giving up a small reserve file beside the database
 * when their journal finds no room. Freed pages go back to the disk, in small steps if need be.
 */
import { randomBytes } from "node:crypto";
import { statSync, statfsSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Database } from "better-sqlite3";
import { asStorageFull, isStorageFull } from "../../store-errors.js";

/** Pages kept back for deletes: deleting the largest job journals about 41, a step of giving back a few more. */
const RESERVE_PAGES = 64;
/** Pages given back per step when one step's journal finds no room. */
const STEP_PAGES = 16;

export type Room = {
  /** Runs a write, again once the WAL is copied out when it finds no room (a grown WAL may be what filled the disk). */
  write<T>(run: () => T): T;
  /**
   * Runs a delete, which must work on a full disk too: when it finds no room, again once the WAL is
   * copied out, then once the reserve is given up; then the pages go back and the reserve is laid down.
   */
  freeing<T>(run: () => T): T;
  settle(): void;
  /** Whether a write found no room and there is not yet room again. */
  isFull(): boolean;
};

/** The room of database `db` at file `path` (undefined for one in memory: no reserve, no volume). */
export function createRoom(db: Database, path: string | undefined): Room {
  const reserveBytes = RESERVE_PAGES * (db.pragma("page_size", { simple: true }) as number);
  const reserve = createReserve(path, reserveBytes);
  let full = false;
  const settle = () => {
    giveBack(db);
    reserve.restore();
  };
  settle();
  /** Once the WAL is all copied, the next write reuses it rather than growing it. */
  const copyOut = () => checkpoint(db);
  const tryWith = <T>(run: () => T, remedies: (() => boolean)[]): T => {
    for (let tried = 0; ; tried++) {
      try {
        return run();
      } catch (error) {
        if (!isStorageFull(error)) throw error;
        full = true;
        if (tried === remedies.length || !remedies[tried]()) throw asStorageFull(error);
      }
    }
  };
  return {
    write(run) {
      const done = tryWith(run, [copyOut]);
      full = false;
      return done;
    },
    freeing(run) {
      const done = tryWith(run, [copyOut, () => reserve.release()]);
      settle();
      return done;
    },
    settle,
    isFull() {
      if (full && reserve.restore() && roomLeft(db, path) >= reserveBytes) full = false;
      return full;
    },
  };
}

/** `restore` lays the reserve down if missing, `release` gives it up; false when they cannot. */
type Reserve = { restore(): boolean; release(): boolean };

/** The reserve of `bytes` at `${path}-reserve`; none for a database in memory. */
function createReserve(path: string | undefined, bytes: number): Reserve {
  if (path === undefined) return { restore: () => true, release: () => false };
  const file = `${path}-reserve`;
  return {
    restore() {
      if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) >= bytes) return true;
      try {
        // random bytes: a file system that compresses or dedupes would keep zeros in no room at all
        writeFileSync(file, randomBytes(bytes), { flush: true });
        return true;
      } catch {
        // a part-written reserve holds room nobody counts on: give it back
        unlinkQuietly(file);
        return false;
      }
    },
    release: () => unlinkQuietly(file),
  };
}

function unlinkQuietly(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Copies the WAL into the database without waiting for readers; quietly fails on a full disk (true all the same). */
function checkpoint(db: Database): true {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // what is not copied now is copied by a later checkpoint
  }
  return true;
}

const freePages = (db: Database) => db.pragma("freelist_count", { simple: true }) as number;

/**
 * Gives free pages back to the disk (incremental vacuum, then a checkpoint): in one step, or when
 * that finds no room, in small ones each checkpointed before the next, so the WAL never needs more
 * than one step's room; until a step finds no room or frees nothing.
 */
function giveBack(db: Database): void {
  let step = "";
  for (let free = freePages(db); free > 0;) {
    try {
      db.pragma(`incremental_vacuum${step}`);
    } catch (error) {
      if (!isStorageFull(error)) throw error;
      if (step !== "") break;
      step = `(${STEP_PAGES})`;
      checkpoint(db);
      continue;
    }
    checkpoint(db);
    const left = freePages(db);
    if (left >= free) break;
    free = left;
  }
  checkpoint(db);
}

/** Bytes a write could still use: the volume's free space, and what is left below `max_page_count`. */
function roomLeft(db: Database, path: string | undefined): number {
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const inUse = (db.pragma("page_count", { simple: true }) as number) - freePages(db);
  const cap = db.pragma("max_page_count", { simple: true }) as number;
  const underCap = (cap - inUse) * pageSize;
  if (path === undefined) return underCap;
  const volume = statfsSync(dirname(path));
  return Math.min(underCap, volume.bavail * volume.bsize);
}
