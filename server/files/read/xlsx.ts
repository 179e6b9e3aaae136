/**
 * The rows of one sheet of an .xlsx, read with exceljs's streaming reader from the checked parts
 * (unzip.ts) re-stored in the order it wants (stored-zip.ts): a row at a time, each cell as its
 * text, so memory holds a row rather than a workbook and a reading stopped early reads no further.
 * The sheet is the one named, or the first with any row; every sheet's name is listed.
 */
import ExcelJS from "exceljs";
import * as z from "zod/mini";
import { cellText } from "./cell-text.js";
import { storedZipStream } from "./stored-zip.js";
import type { GridRow } from "./grid-row.js";
import type { ZipPart } from "./unzip.js";

/** What the reading found: every sheet's name, and the one read (null when none had rows, or the one named is missing). */
export type SheetChoice = { sheets: string[]; sheet: string | null };

/** Rows per batch handed on. */
const BATCH_ROWS = 256;

// exceljs's typings leave the name of a streamed sheet out; it is there, and parsed here
const NamedSheet = z.object({ name: z.string() });

/** Yields the rows of the sheet `wanted` (or the first with rows) in batches; fills `found` as it goes. */
export async function* sheetRows(
  parts: ZipPart[],
  wanted: string | undefined,
  found: SheetChoice,
): AsyncGenerator<GridRow[]> {
  const input = storedZipStream(parts);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: "cache",
    styles: "cache", // to tell dates from numbers
    hyperlinks: "ignore", // a link's cell keeps its text
    worksheets: "emit",
    entries: "ignore",
  });
  try {
    for await (const worksheet of reader) {
      const named = NamedSheet.safeParse(worksheet);
      const name = named.success ? named.data.name : `Sheet${found.sheets.length + 1}`;
      found.sheets.push(name);
      if (found.sheet !== null || (wanted !== undefined && name !== wanted)) continue;
      let batch: GridRow[] = [];
      let previous = 0;
      for await (const row of worksheet) {
        // a row without its number (some writers leave it out) follows the one before
        const number = Number.isSafeInteger(row.number) && row.number > previous ? row.number : previous + 1;
        previous = number;
        const cells: string[] = new Array<string>(row.cellCount).fill("");
        row.eachCell((cell, column) => {
          cells[column - 1] = cellText(cell.value);
        });
        batch.push({ row: number, cells });
        if (batch.length >= BATCH_ROWS) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
      if (previous > 0 || wanted !== undefined) found.sheet = name;
    }
  } finally {
    input.destroy();
  }
}
