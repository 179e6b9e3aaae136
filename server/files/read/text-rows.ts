/**
 * The rows of a delimited text (CSV, TSV, "Unicode text"): measured first by the job's own quick
 * scan, so a text of one huge line or of endless cells is refused before it is split, then read
 * with csv-parse in slices, every record with the row a spreadsheet shows and the records it cannot
 * read in their place.
 */
import { readCsvBatches } from "./csv/reader.js";
import { breachRefusal, findHeader, scanRecords } from "./csv/scan.js";
import type { InputLimits } from "../../limits.js";
import { ok, type Outcome } from "../../outcomes.js";
import type { Pace } from "./pace.js";
import type { GridRow } from "./grid-row.js";

/** The text's rows in batches, or the refusal of a record past a limit. */
export async function textRows(
  text: string,
  separator: string,
  limits: InputLimits,
  pace: Pace,
): Promise<Outcome<AsyncIterable<GridRow[]>>> {
  const header = findHeader(text);
  if (header !== undefined) {
    // the first line with text stands for the header here: rows above the real one count as rows
    const { breach } = await scanRecords(
      text,
      header,
      separator,
      -1,
      { ...limits, maxRows: limits.maxRows + 1_000 },
      pace,
    );
    if (breach) return breachRefusal(breach, "The file", limits);
  }
  return ok(batches(text, separator));
}

/** Characters csv-parse reads at a time: a few milliseconds of records. */
const SLICE_CHARS = 16 * 1024;

async function* batches(text: string, separator: string): AsyncGenerator<GridRow[]> {
  for await (const { records, rows, unreadable } of readCsvBatches(text, {
    separator,
    from: 0,
    sliceChars: SLICE_CHARS,
  })) {
    const batch: GridRow[] = [];
    let u = 0;
    for (let k = 0; k < records.length; k++) {
      while (u < unreadable.length && unreadable[u].row < rows[k]) batch.push(unreadable[u++]);
      batch.push({ row: rows[k], cells: records[k] });
    }
    while (u < unreadable.length) batch.push(unreadable[u++]);
    yield batch;
  }
}
