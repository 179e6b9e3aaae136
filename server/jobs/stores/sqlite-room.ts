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

/** A pragma's value, for those that are a number. */
export const readPragma = (db: Database, name: string) => db.pragma(name, { simple: true }) as number;

/** The room of database `db` at file `path` (undefined for one in memory: no reserve, no volume). */
export function createRoom(db: Database, path: string | undefined) {
  const reserveBytes = RESERVE_PAGES * readPragma(db, "page_size");
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
    /** Runs a write, again once the WAL is copied out when it finds no room (a grown WAL may have filled the disk). */
    write<T>(run: () => T): T {
      const done = tryWith(run, [copyOut]);
      full = false;
      return done;
    },
    /**
     * Runs a delete, which must work on a full disk too: when it finds no room, again once the WAL is
     * copied out, then once the reserve is given up; then the pages go back and the reserve is laid down.
     */
    freeing<T>(run: () => T): T {
      const done = tryWith(run, [copyOut, () => reserve.release()]);
      settle();
      return done;
    },
    settle,
    /** Whether a write found no room and there is not yet room again. */
    isFull() {
      if (full && reserve.restore() && roomLeft(db, path) >= reserveBytes) full = false;
      return full;
    },
  };
}
export type Room = ReturnType<typeof createRoom>;

/** The reserve (none in memory): `restore` lays it down if missing, `release` gives it up; false when they cannot. */
function createReserve(path: string | undefined, bytes: number) {
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
        quietly(() => unlinkSync(file));
        return false;
      }
    },
    release: () => quietly(() => unlinkSync(file)),
  };
}

/** Whether `run` ran without throwing. */
function quietly(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch {
    return false;
  }
}

/** Copies the WAL into the database without waiting for readers; quietly fails on a full disk (true all the same). */
function checkpoint(db: Database): true {
  // what is not copied now is copied by a later checkpoint
  quietly(() => db.pragma("wal_checkpoint(PASSIVE)"));
  return true;
}

/**
 * Gives free pages back to the disk (incremental vacuum, then a checkpoint): in one step, or when
 * that finds no room, in small ones each checkpointed before the next, so the WAL never needs more
 * than one step's room; until a step finds no room or frees nothing.
 */
function giveBack(db: Database): void {
  let step = "";
  for (let free = readPragma(db, "freelist_count"); free > 0;) {
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
    const left = readPragma(db, "freelist_count");
    if (left >= free) break;
    free = left;
  }
  checkpoint(db);
}

/** Bytes a write could still use: the volume's free space, and what is left below `max_page_count`. */
function roomLeft(db: Database, path: string | undefined): number {
  const inUse = readPragma(db, "page_count") - readPragma(db, "freelist_count");
  const underCap = (readPragma(db, "max_page_count") - inUse) * readPragma(db, "page_size");
  if (path === undefined) return underCap;
  const volume = statfsSync(dirname(path));
  return Math.min(underCap, volume.bavail * volume.bsize);
}
