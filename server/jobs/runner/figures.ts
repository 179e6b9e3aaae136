/**
 * A finished result in figures, for views to word in their own language and for the model. The
 * interests the matcher could not place are counted once however they are capitalized, and the
 * most written are named, so the person can fix the list.
 */
import type { DepartmentFigures, ResultFigures, UnplacedInterests } from "../../../shared/tools.js";
import type { Person } from "../../files/read/people/rows.js";

/** Departments the figures name, the last of them "…" for all the rest when there are more. */
const MAX_DEPARTMENTS = 40;
const OTHER_DEPARTMENTS = "…";

const cents = (amount: number) => Math.round(amount * 100) / 100;

/** People, those with a gift, the top picks' cost against the budgets' sum, the interests not placed. */
export function figuresOf(people: Person[], skipped: number, unplaced: UnplacedInterests | undefined): ResultFigures {
  let withGifts = 0;
  let topPicks = 0;
  let budget = 0;
  for (const p of people) {
    budget += p.budget;
    if (p.gifts.length > 0) {
      withGifts++;
      topPicks += p.gifts[0].price;
    }
  }
  const figures = {
    people: people.length,
    withGifts,
    skipped,
    topPicks: cents(topPicks),
    budget: cents(budget),
    departments: departmentsOf(people),
  };
  return unplaced === undefined ? figures : { ...figures, unplaced };
}

/** The same by department, costliest top picks first (then by name); past MAX_DEPARTMENTS the rest summed last. */
function departmentsOf(people: Person[]): DepartmentFigures[] {
  const by = new Map<string, DepartmentFigures>();
  for (const p of people) {
    const department = p.department ?? "";
    let d = by.get(department);
    if (d === undefined) by.set(department, (d = { department, people: 0, budget: 0, topPicks: 0 }));
    d.people++;
    d.budget += p.budget;
    d.topPicks += p.gifts[0]?.price ?? 0;
  }
  const all = [...by.values()].sort(
    (a, b) => b.topPicks - a.topPicks || (a.department < b.department ? -1 : a.department > b.department ? 1 : 0),
  );
  if (all.length > MAX_DEPARTMENTS) {
    const rest = { department: OTHER_DEPARTMENTS, people: 0, budget: 0, topPicks: 0 };
    for (const d of all.splice(MAX_DEPARTMENTS - 1)) {
      rest.people += d.people;
      rest.budget += d.budget;
      rest.topPicks += d.topPicks;
    }
    all.push(rest);
  }
  return all.map((d) => ({ ...d, budget: cents(d.budget), topPicks: cents(d.topPicks) }));
}

/** How many unplaced interests the summary and the figures name, the most written first. */
const NAMED = 10;

/** The interests the matcher could not place, by lower case: the first spelling met, and how many wrote it. */
export class UnplacedTally {
  readonly #tally = new Map<string, { name: string; people: number }>();

  /** Notes one person's unplaced interests (each once). */
  add(interests: readonly string[]): void {
    for (const name of interests) {
      const key = name.toLowerCase();
      const seen = this.#tally.get(key);
      if (seen) seen.people++;
      else this.#tally.set(key, { name, people: 1 });
    }
  }

  /** Undefined when every interest was placed. */
  result(): UnplacedInterests | undefined {
    if (this.#tally.size === 0) return undefined;
    // a stable sort: among equally written ones, the first met comes first
    const most = [...this.#tally.values()].sort((a, b) => b.people - a.people).slice(0, NAMED);
    return { count: this.#tally.size, names: most.map((u) => u.name) };
  }
}
