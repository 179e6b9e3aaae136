/**
 * Rows as an .xlsx workbook of one sheet, through exceljs's streaming writer, so 200,000 people
 * are written in bounded memory at the pace their reader takes the bytes. Nothing is ever written
 * as a formula, so a name such as `=cmd|...` is shown as the text it is.
 */
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { setImmediate as turn, setTimeout as sleep } from "node:timers/promises";
import ExcelJS from "exceljs";

/** A cell: text, or a number a spreadsheet can add up. */
export type Cell = string | number;

export const XLSX_MIME_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** exceljs takes some 0.1 ms a row: rows are written in slices of this many ms between turns. */
const SLICE_MS = 8;
/** Sheet XML allowed to wait for deflate: some 40 ms of its work. */
const MAX_UNZIPPED_BYTES = 1024 * 1024;

const at = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;

/**
 * Sheet XML handed to the zip, not yet deflated. exceljs 4 has no backpressure there, so rows would pile
 * up in memory; this reads a buffer internal to exceljs 4.4 (pinned): xlsx.test.ts fails if it moves.
 */
export const unzipped = (sheet: object): number | undefined => {
  const length = at(at(at(at(at(sheet, "_stream"), "pipes"), "0"), "_writableState"), "length");
  return typeof length === "number" ? length : undefined;
};

/** The most characters Excel keeps in one cell; a longer one makes it "repair" the whole file. */
const MAX_CELL_CHARS = 32_767;

/** Strings stay strings (exceljs makes a formula only of `{ formula }` objects); empty cells are left out. */
const cellValue = (c: Cell): string | number | null =>
  typeof c === "number" ? c : c === "" ? null : c.length > MAX_CELL_CHARS ? c.slice(0, MAX_CELL_CHARS) : c;

export type XlsxOptions = {
  sheetName: string;
  /** Columns (0-based) of amounts, and the number format they are shown in ('"₩"#,##0'). */
  money?: { columns: readonly number[]; format: string };
  created: Date;
};

/** The workbook's bytes as the zip produces them. */
export async function* xlsxFile(
  header: readonly string[],
  batches: AsyncIterable<Cell[][]>,
  { sheetName, created, money }: XlsxOptions,
): AsyncGenerator<Uint8Array> {
  const out = new PassThrough();
  // shared strings would keep every distinct string of the file in memory until the end
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: money !== undefined,
    useSharedStrings: false,
  });
  book.creator = "GiftGenius";
  book.created = created;
  book.modified = created;
  const sheet = book.addWorksheet(sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
  const stop = new AbortController();
  const write = (async () => {
    sheet.addRow([...header]).commit();
    // the rows after the header take their columns' format as they are made
    for (const c of money?.columns ?? []) sheet.getColumn(c + 1).numFmt = money?.format ?? "";
    let until = performance.now() + SLICE_MS;
    for await (const rows of batches) {
      for (const cells of rows) {
        sheet.addRow(cells.map(cellValue)).commit();
        if (performance.now() < until) continue;
        // the zip deflates on other turns, and other requests are served; a reader that lags holds the writing back
        await turn();
        // deflate runs between slices: wait while it has more than a little of the sheet to catch up on
        while ((unzipped(sheet) ?? 0) > MAX_UNZIPPED_BYTES) await sleep(1, undefined, { signal: stop.signal });
        stop.signal.throwIfAborted();
        if (out.writableNeedDrain) await once(out, "drain", { signal: stop.signal });
        until = performance.now() + SLICE_MS;
      }
    }
    sheet.commit();
    await book.commit();
  })();
  // a failed write ends the bytes with its error; one stopped by a reader that left ends quietly
  write.catch((error: unknown) => out.destroy(stop.signal.aborted ? undefined : toError(error)));
  try {
    for await (const chunk of out) yield chunk;
    await write;
  } finally {
    stop.abort();
    out.destroy();
  }
}

const toError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
