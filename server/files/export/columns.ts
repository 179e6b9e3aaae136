/**
 * What a file out holds, whatever its format: the picks (one row per person, with up to three
 * gifts spelled out as name, price, category and reason) or the error ledger (the rows skipped,
 * with why). The CSV and .xlsx writers both write these rows, so the two formats never differ.
 */
import type { SkippedRow } from "../../../shared/files.js";
import type { PersonResult } from "../../../shared/tools.js";

/** A cell: text, or a number a spreadsheet can add up (budgets and prices, in US dollars). */
export type Cell = string | number;

/** Gifts per person the picks have columns for: what the analysis picks for each person. */
const GIFT_COLUMNS = 3;

export const PICKS_HEADER: readonly string[] = [
  "row",
  "name",
  "department",
  "interests",
  "budget",
  ...Array.from({ length: GIFT_COLUMNS }, (_, i) => [
    `gift ${i + 1}`,
    `gift ${i + 1} price`,
    `gift ${i + 1} category`,
    `gift ${i + 1} reason`,
  ]).flat(),
];

export const SKIPPED_HEADER: readonly string[] = ["row", "reason"];

/** One person's row; a person with fewer gifts (none fitted the budget) has empty gift cells. */
export function pickCells(p: PersonResult): Cell[] {
  const cells: Cell[] = [p.row, p.name, p.department ?? "", p.interests.join("; "), p.budget];
  for (let i = 0; i < GIFT_COLUMNS; i++) {
    const g = p.gifts[i];
    cells.push(...(g ? [g.name, g.price, g.category, g.reason] : ["", "", "", ""]));
  }
  return cells;
}

export const skippedCells = (s: SkippedRow): Cell[] => [s.row, s.reason];
