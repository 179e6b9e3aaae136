/**
 * Who is who in a staff list. A row with an ID (사번) is the person with that ID: a later row with
 * the same ID is a repeat. A row without one is known by its fields: a row that agrees with an
 * earlier one in every field is a repeat; one that shares only the name and department is another
 * person (namesakes are common: two 김민준 in 개발팀), flagged as a possible duplicate that the
 * person can choose to merge. A row with an ID is never the repeat of one without, nor the other
 * way round: where only some rows have one, neither can tell. One map lookup for most rows (two for
 * a name seen before), so linear in the rows: a 200,000-row file stays fast.
 */
import type { DuplicateGroup } from "../../../../shared/files.js";
import type { Person } from "./rows.js";

/** Possible-duplicate groups kept for the preview, and rows kept of each. */
const GROUPS_SHOWN = 20;
const ROWS_SHOWN = 5;

export type IdentityOptions = {
  /** Rows without an ID that share a name and department are one person: the later ones skipped. */
  mergeDuplicates?: boolean;
};

export type Identities = {
  /** Why `person` is no new person (a repeat, a merged namesake), or undefined for one not seen. */
  check(person: Person): string | undefined;
  /** The first groups of namesakes kept as different people, and how many groups there are. */
  duplicates(): { groups: DuplicateGroup[]; count: number };
};

/** Text that NFKC leaves as it is: printable ASCII, tabs, line ends and Hangul syllables (normalizing costs more than the rest). */
const STABLE = /^[ -~\t\r\n\uac00-\ud7a3]*$/;

/** "  Kim  MIN " → "kim min": the same text whatever its spacing, case or Unicode form. */
const norm = (text: string) =>
  (STABLE.test(text) ? text : text.normalize("NFKC")).trim().replace(/\s+/g, " ").toLowerCase();

/** The first row of a name and department; what else it wrote, and the other rows of that name. */
type Known = {
  first: number;
  person: Person;
  others: Map<string, number> | undefined;
  group: DuplicateGroup | undefined;
};

/** Everything but the name and department that tells two rows apart, normalized ("등산; 커피" = "등산;커피"). */
const rest = (p: Person) =>
  `${norm(p.interestsText).replace(/\s*([;|,/·、，／ㆍ・])\s*/g, "$1")}\u0000${p.budgetGiven ? p.budget : ""}`;

/** Who is who, row by row, in the order the rows come. */
export function createIdentities({ mergeDuplicates = false }: IdentityOptions = {}): Identities {
  const ids = new Map<string, number>();
  // name and department → their first row: one lookup for most rows; the other fields are only
  // looked at when a name and department come again
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

  return {
    check(p) {
      if (p.id !== null) return byId(p.row, p.id);
      const who = `${norm(p.name)}\u0000${norm(p.department ?? "")}`;
      const known = names.get(who);
      if (known !== undefined) return again(known, p);
      names.set(who, { first: p.row, person: p, others: undefined, group: undefined });
      return undefined;
    },
    duplicates: () => ({ groups, count }),
  };
}
