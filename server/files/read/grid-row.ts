/**
 * What a reader hands the table (`table.ts`): one row of a staff list's source, a CSV record or a
 * sheet row with the row number the file shows, or why that row could not be read; or, thrown from
 * deep inside the reading, a refusal (a limit passed) that stops it, which `readStaffFile` returns.
 */
import type { Outcome } from "../../outcomes.js";

/** One row of the source: its cells, or why it could not be read. */
export type GridRow = { row: number; cells: string[] } | { row: number; reason: string };

/** A row of cells is blank when no cell has more than spaces. */
export const isBlank = (cells: string[]) => cells.every((c) => c.trim() === "");

export class Refused extends Error {
  constructor(readonly outcome: Outcome<never>) {
    super("refused");
  }
}
