/**
 * How the SQLite store gets through a full disk. Writes that find no room fail with the
 * StorageFullError callers can read, and mark the store full for /healthz until there is room
 * again. Deletes work all the same: a small reserve file beside the database is given up when a
 * delete's journal (WAL) finds no room, and laid down again once there is; freed pages go back to
 * the disk, in steps whose journal fits where one big step's would not.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, statSync, statfsSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { Database } from "better-sqlite3";
import { asStorageFull, isStorageFull } from "../../store-errors.js";

/**
 * Pages of room kept back for deletes: the journal of deleting even the largest job takes about
 * 41 (freed pages are listed, not copied), and a step of giving pages back a few more.
 */
const RESERVE_PAGES = 64;
/** Pages moved per step when the freed pages cannot be given back in one step (each is journaled). */
const STEP_PAGES = 16;

export type Room = {
  /**
   * Runs a write; when it finds no room, it is tried again once the WAL is copied out (a WAL
   * grown up to its checkpoint size may be what filled a small disk). No room then is a
   * StorageFullError, and the store reads as full until there is room again.
   */
  write<T>(run: () => T): T;
  /**
   * Runs a write that frees room (a delete), which must work on a full disk too: nothing is
   * written before it, and when it finds no room it is tried again once the WAL is copied out
   * (the write then reuses the WAL from its start), then once the reserve has given its room to
   * the journal. The pages it frees go back to the disk, and the reserve is laid down again.
   */
  freeing<T>(run: () => T): T;
  /** Gives free pages back to the disk and lays the reserve down if it is missing. */
  settle(): void;
  /** Whether a write found no room and there is not yet room again (the reserve and as much). */
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
  // what an earlier process left free goes back to the disk, and the reserve is laid down
  settle();
  /** Once the WAL is all copied, the next write reuses it from its start rather than growing it. */
  const copyOut = () => {
    checkpoint(db);
    return true;
  };
  /** Runs `run`, applying the next remedy each time it finds no room, until none is left. */
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

type Reserve = {
  /** Lays the reserve down when it is missing; false when there is no room for it (tried again later). */
  restore(): boolean;
  /** Gives the reserve's room back to the disk; false when there was none to give. */
  release(): boolean;
};

/** The reserve of `bytes` beside database file `path` (`${path}-reserve`); none for a database in memory. */
function createReserve(path: string | undefined, bytes: number): Reserve {
  if (path === undefined) return { restore: () => true, release: () => false };
  const file = `${path}-reserve`;
  const size = () => {
    try {
      return statSync(file).size;
    } catch {
      return -1;
    }
  };
  return {
    restore() {
      if (size() >= bytes) return true;
      try {
        writeReserve(file, bytes);
        return true;
      } catch {
        // a part-written reserve holds room nobody counts on: give it back
        unlinkQuietly(file);
        return false;
      }
    },
    release() {
      return size() >= 0 && unlinkQuietly(file);
    },
  };
}

function writeReserve(file: string, bytes: number): void {
  const fd = openSync(file, "w");
  try {
    // random bytes: a file system that compresses or dedupes would keep zeros in no room at all
    const body = randomBytes(bytes);
    for (let at = 0; at < bytes;) at += writeSync(fd, body, at, bytes - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function unlinkQuietly(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copies the WAL into the database without waiting for readers. Once it is all copied, the next
 * write starts the WAL again from its beginning, over frames already on disk, instead of growing
 * it. Fails quietly: on a full disk the database file may have no room to grow into.
 */
function checkpoint(db: Database): void {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // what is not copied now is copied by a later checkpoint
  }
}

const freePages = (db: Database) => db.pragma("freelist_count", { simple: true }) as number;

/**
 * Gives the database's free pages back to the disk (incremental auto-vacuum, then a checkpoint,
 * which truncates the file). In one step when the journal finds room; otherwise in steps of a
 * few pages, each checkpointed before the next, so the WAL is reused and never needs more than
 * one step's room. Stops when the disk has no room even for that; the pages stay free in the file.
 */
function giveBack(db: Database): void {
  try {
    if (freePages(db) > 0) db.pragma("incremental_vacuum");
  } catch (error) {
    if (!isStorageFull(error)) throw error;
    inSteps(db);
  }
  checkpoint(db);
}

function inSteps(db: Database): void {
  checkpoint(db);
  for (let free = freePages(db); free > 0;) {
    try {
      db.pragma(`incremental_vacuum(${STEP_PAGES})`);
    } catch (error) {
      if (isStorageFull(error)) return;
      throw error;
    }
    checkpoint(db);
    const left = freePages(db);
    if (left >= free) return;
    free = left;
  }
}

/**
 * Bytes a write could still use: the volume's free space (for this user), and under a page cap
 * (`max_page_count`) the pages left below it, counting free pages in the file as room.
 */
function roomLeft(db: Database, path: string | undefined): number {
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const inUse = (db.pragma("page_count", { simple: true }) as number) - freePages(db);
  const cap = db.pragma("max_page_count", { simple: true }) as number;
  const underCap = (cap - inUse) * pageSize;
  if (path === undefined) return underCap;
  const volume = statfsSync(dirname(path));
  return Math.min(underCap, volume.bavail * volume.bsize);
}
