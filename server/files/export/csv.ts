/**
 * Rows as a CSV file for spreadsheets: UTF-8 with a byte-order mark, CRLF line ends, and the
 * result CSV's formula-cell guard on every text cell (a name such as `=cmd|...` stays text).
 * Written a batch of rows at a time, so a file of any size never sits whole in memory.
 */
import { csvCell } from "./result-csv.js";
import type { Cell } from "./columns.js";

export const CSV_MIME_TYPE = "text/csv; charset=utf-8";

/**
 * Excel opens a CSV without a byte-order mark in the system's legacy code page (CP949 on a
 * Korean Windows, Windows-1252 on a Western one), so 김민준 would show as mojibake; with the BOM
 * it reads UTF-8. Other spreadsheets and csv-parse (`bom: true`) skip it.
 */
const BOM = "\uFEFF";

const line = (cells: readonly Cell[]): string =>
  `${cells.map((c) => (typeof c === "number" ? String(c) : csvCell(c))).join(",")}\r\n`;

/** The CSV bytes: the BOM and header first, then each batch of rows as one piece. */
export async function* csvFile(
  header: readonly string[],
  batches: AsyncIterable<Cell[][]>,
): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(BOM + line(header));
  for await (const rows of batches) {
    if (rows.length > 0) yield encoder.encode(rows.map(line).join(""));
  }
}
