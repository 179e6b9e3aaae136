/**
 * The interests of a job's people that the matcher could place on no interest it knows, each
 * counted once however it is capitalized, with how many people wrote it: the summary and the
 * result's figures name the most written ones, so the person can fix the list and the model sees
 * what was not understood.
 */
import type { UnplacedInterests } from "../../../shared/tools.js";

/** How many of them the summary and the figures name, the most written first. */
const NAMED = 10;

export type UnplacedTally = {
  /** Notes one person's unplaced interests (a person's list holds each interest once). */
  add(interests: readonly string[]): void;
  /** How many different ones, and the most written; undefined when every interest was placed. */
  result(): UnplacedInterests | undefined;
};

export function createUnplacedTally(): UnplacedTally {
  // by the interest in lower case: the first spelling met, and the people who wrote it
  const tally = new Map<string, { name: string; people: number }>();
  return {
    add(interests) {
      for (const name of interests) {
        const key = name.toLowerCase();
        const seen = tally.get(key);
        if (seen) seen.people++;
        else tally.set(key, { name, people: 1 });
      }
    },
    result() {
      if (tally.size === 0) return undefined;
      // a stable sort: among equally written ones, the first met comes first
      const most = [...tally.values()].sort((a, b) => b.people - a.people).slice(0, NAMED);
      return { count: tally.size, names: most.map((u) => u.name) };
    },
  };
}
