/**
 * Reading every sheet of a workbook back as the staff-file reader sees it (rows of text by row
 * number), for the corpus tests: what a test compares with what the writer stored.
 */
import { createPace } from "../../server/files/read/pace.js";
import { Refused } from "../../server/files/read/grid-row.js";
import { openWorkbook } from "../../server/files/read/xlsx/unzip.js";
import { readSheets, type SheetSummary } from "../../server/files/read/xlsx.js";
import { READ_LIMITS, type ReadLimits } from "../../server/files/read/xlsx/read-limits.js";

/** A sheet's rows as text, row 1 first, a row the sheet leaves out as []. */
export type Grid = string[][];

/** Sheet `sheet` of `bytes` (the chosen one when undefined) read whole; a refusal is thrown as its message. */
export async function readGrid(
  bytes: Uint8Array,
  sheet?: string,
  limits: ReadLimits = READ_LIMITS,
): Promise<{ grid: Grid; sheets: SheetSummary[]; sheet: string | null }> {
  const zip = await openWorkbook(bytes, limits);
  if (!zip.ok) throw new Error(zip.error.message);
  try {
    const found = await readSheets(zip.value, sheet, { limits, pace: createPace() });
    if (!found.ok) throw new Error(found.error.message);
    const grid: Grid = [];
    for await (const batch of found.value.rows)
      for (const r of batch) {
        while (grid.length < r.row - 1) grid.push([]);
        grid.push("cells" in r ? r.cells : [`(${r.reason})`]);
      }
    return { grid, sheets: found.value.sheets, sheet: found.value.sheet };
  } catch (error) {
    if (error instanceof Refused && !error.outcome.ok)
      throw new Error(`${error.outcome.error.code}: ${error.outcome.error.message}`, { cause: error });
    throw error;
  } finally {
    zip.value.close();
  }
}
