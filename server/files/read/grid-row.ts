/**
 * What a reader hands the table: a row with the number the file shows, or why it could not be read;
 * or, thrown from deep inside the reading, a refusal that `readStaffFile` returns.
 */
import { fail, type Outcome } from "../../outcomes.js";

export type CellRow = { row: number; cells: string[] };
export type GridRow = CellRow | { row: number; reason: string };

/** A row of cells is blank when no cell has more than spaces. */
export const isBlank = (cells: string[]) => cells.every((c) => c.trim() === "");

export class Refused extends Error {
  constructor(readonly outcome: Outcome<never>) {
    super("refused");
  }
}

/** The refusal `fail(code, message, hint)` says, to throw. */
export const refuse = (...failure: Parameters<typeof fail>) => new Refused(fail(...failure));
