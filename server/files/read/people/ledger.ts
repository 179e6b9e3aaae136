/**
 * Every row's fate, in row order: a person, or a row skipped with why. Empty rows wait until a row
 * with text follows (blank lines at the end are no rows at all); a person's later rows are skipped
 * as repeats, and namesakes noted (identity.ts). The job's parse stage and a staff file's preview both read through one, so the rows a
 * preview promises to skip are the rows the job skips, for the same reasons.
 */
import type { SkippedRow } from "../../../../shared/files.js";
import { createIdentities, type Identities, type IdentityOptions } from "./identity.js";
import { EMPTY_ROW, type Person } from "./rows.js";

/** A row as readRecord tells it, with whatever the caller wants handed back with its fate. */
export type Ledger<T> = {
  add(read: Person | SkippedRow, extra: T): void;
  /** No more rows: the empty rows still waiting were trailing blank lines, not rows. */
  end(): void;
  /** The namesakes kept as different people so far (see identity.ts). */
  duplicates(): ReturnType<Identities["duplicates"]>;
};

/** A ledger that hands each row's final fate to `settle`, in the order the rows were added. */
export function createLedger<T>(
  settle: (fate: Person | SkippedRow, extra: T) => void,
  options: IdentityOptions = {},
): Ledger<T> {
  const identities = createIdentities(options);
  let waiting: [SkippedRow, T][] = [];
  return {
    add(read, extra) {
      if ("reason" in read && read.reason === EMPTY_ROW) {
        waiting.push([read, extra]);
        return;
      }
      if (waiting.length > 0) {
        for (const [row, held] of waiting) settle(row, held);
        waiting = [];
      }
      const again = "reason" in read ? undefined : identities.check(read);
      settle(again === undefined ? read : { row: read.row, reason: again }, extra);
    },
    end() {
      waiting = [];
    },
    duplicates: () => identities.duplicates(),
  };
}
