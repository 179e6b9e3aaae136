/**
 * Every row's fate, in row order: a person, or a row skipped with why, for the job and the preview alike. Empty rows
 * wait until a row with text follows (blank lines at the end are no rows). A row with an ID (사번) is that person, a
 * later one with that ID a repeat; a row without is a repeat when every field agrees with an earlier one, and another
 * person flagged as a possible duplicate when only the name and department do (two 김민준 in 개발팀 are common). A row with
 * an ID is never the repeat of one without, nor the other way round. One map lookup for most rows: linear.
 */
import type { DuplicateGroup, SkippedRow } from "../../../../shared/files.js";
import { EMPTY_ROW, type Person } from "./rows.js";

/** Possible-duplicate groups kept for the preview, and rows kept of each. */
const GROUPS_SHOWN = 20;
const ROWS_SHOWN = 5;

/** Text NFKC leaves as it is (normalizing costs more than the rest). */
const STABLE = /^[ -~\t\r\n\uac00-\ud7a3]*$/;

/** "  Kim  MIN " → "kim min": the same text whatever its spacing, case or Unicode form. */
const norm = (text: string) =>
  (STABLE.test(text) ? text : text.normalize("NFKC")).trim().replace(/\s+/g, " ").toLowerCase();

/** The first row of a name and department; the other rows of that name by their other fields. */
type Known = { first: number; person: Person; others?: Map<string, number>; group?: DuplicateGroup };

/** Everything but the name and department that tells two rows apart, normalized ("등산; 커피" = "등산;커피"). */
const rest = (p: Person) =>
  `${norm(p.interestsText).replace(/\s*([;|,/·、，／ㆍ・])\s*/g, "$1")}\u0000${p.budgetGiven ? p.budget : ""}`;

/** Rows as readRecord tells them, with whatever the caller wants handed back with each fate. */
export type Ledger<T> = {
  add(read: Person | SkippedRow, extra: T): void;
  /** No more rows: the empty rows still waiting were trailing blank lines, not rows. */
  end(): void;
  /** The first groups of namesakes kept as different people so far, and how many there are. */
  duplicates(): { groups: DuplicateGroup[]; count: number };
};

/** A ledger handing each row's fate to `settle`, in order; `mergeDuplicates` makes namesakes without an ID one. */
export function createLedger<T>(
  settle: (fate: Person | SkippedRow, extra: T) => void,
  { mergeDuplicates = false }: { mergeDuplicates?: boolean } = {},
): Ledger<T> {
  const ids = new Map<string, number>();
  // name and department → their first row; the other fields only when they come again
  const names = new Map<string, Known>();
  const groups: DuplicateGroup[] = [];
  let count = 0;

  const byId = (row: number, id: string) => {
    const key = norm(id);
    const earlier = ids.get(key);
    if (earlier !== undefined) return `its ID ${JSON.stringify(id)} repeats row ${earlier}`;
    ids.set(key, row);
    return undefined;
  };

  const again = (known: Known, p: Person) => {
    // a budget left empty is not the same as one written, though the job may read it as the default
    const fields = rest(p);
    if (known.others === undefined) known.others = new Map([[rest(known.person), known.first]]);
    const same = known.others.get(fields);
    if (same !== undefined) return `it repeats row ${same}`;
    // merged rows are not remembered: a copy of one is merged with the first row too, as it was
    if (mergeDuplicates) return `it was merged with row ${known.first}, which has the same name and department`;
    known.others.set(fields, p.row);
    if (known.group === undefined) {
      known.group = { rows: [known.first], name: known.person.name, department: known.person.department ?? "" };
      count++;
      if (groups.length < GROUPS_SHOWN) groups.push(known.group);
    }
    if (known.group.rows.length < ROWS_SHOWN) known.group.rows.push(p.row);
    return undefined;
  };

  /** Why `p` is no new person, or undefined. */
  const check = (p: Person) => {
    if (p.id !== null) return byId(p.row, p.id);
    const who = `${norm(p.name)}\u0000${norm(p.department ?? "")}`;
    const known = names.get(who);
    if (known !== undefined) return again(known, p);
    names.set(who, { first: p.row, person: p });
    return undefined;
  };

  const waiting: [SkippedRow, T][] = [];
  return {
    add(read, extra) {
      if ("reason" in read && read.reason === EMPTY_ROW) {
        waiting.push([read, extra]);
        return;
      }
      for (const [row, held] of waiting) settle(row, held);
      waiting.length = 0;
      const repeat = "reason" in read ? undefined : check(read);
      settle(repeat === undefined ? read : { row: read.row, reason: repeat }, extra);
    },
    end() {
      waiting.length = 0;
    },
    duplicates: () => ({ groups, count }),
  };
}
