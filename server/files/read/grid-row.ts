/**
 * One row of a staff list's source as the readers hand it to the table (`table.ts`): a CSV record
 * or a sheet row with the row number the file shows, or why that row could not be read.
 */

/** One row of the source: its cells, or why it could not be read. */
export type GridRow = { row: number; cells: string[] } | { row: number; reason: string };

/** A row of cells is blank when no cell has more than spaces. */
export const isBlank = (cells: string[]) => cells.every((c) => c.trim() === "");
