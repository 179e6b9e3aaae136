/**
 * A CSV's records read with csv-parse in batches of bounded work, so the caller can yield between
 * them. Records csv-parse cannot read come as rows with why, in their place.
 */
import { once } from "node:events";
import { parse, type CsvError, type Options } from "csv-parse";
import type { GridRow } from "../grid-row.js";

export type CsvReadOptions = {
  separator?: string;
  /** Records up to this row are left out: the header's row, or 0 for every record. 1 by default. */
  from?: number;
  sliceChars?: number;
};

export async function* readCsvBatches(
  csv: string,
  { separator = ",", from = 1, sliceChars = 64 * 1024 }: CsvReadOptions = {},
): AsyncGenerator<GridRow[]> {
  // csv-parse skips a record it cannot read and says how many good records came before it
  const failed: { before: number; reason: string }[] = [];
  let nextFailed = 0; // an index, not shift(): many unreadable rows stay linear
  const options: Options & { readableHighWaterMark: number } = {
    bom: true,
    delimiter: separator,
    // every line end, as the quick scan (inspect.ts) counts them, however a file mixes them
    record_delimiter: ["\r\n", "\n", "\r"],
    relax_quotes: true,
    relax_column_count: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      if (error)
        failed.push({ before: typeof error.records === "number" ? error.records : good, reason: describe(error) });
      return undefined;
    },
    // batches are drained right after each write, so the buffer never needs to push back
    readableHighWaterMark: 1 << 30,
  };
  const parser = parse(options);
  let broken: Error | undefined;
  parser.on("error", (error) => (broken = error));
  let good = 0; // records read so far, header included
  let row = 0;

  const take = (batch: GridRow[], reason: string) => {
    if (++row > from) batch.push({ row, reason });
  };
  const drain = (final: boolean): GridRow[] => {
    const batch: GridRow[] = [];
    let cells: string[] | null;
    while ((cells = parser.read() as string[] | null) !== null) {
      while (nextFailed < failed.length && failed[nextFailed].before <= good) take(batch, failed[nextFailed++].reason);
      good++;
      if (++row > from) batch.push({ row, cells });
    }
    if (final) while (nextFailed < failed.length) take(batch, failed[nextFailed++].reason);
    return batch;
  };

  for (let offset = 0; offset < csv.length;) {
    let end = Math.min(csv.length, offset + sliceChars);
    // never between the two halves of a surrogate pair, which would each become U+FFFD
    if (end < csv.length && isHighSurrogate(csv.charCodeAt(end - 1))) end += end - 1 > offset ? -1 : 1;
    parser.write(csv.slice(offset, end));
    offset = end;
    if (broken) throw broken;
    yield drain(false);
  }
  const finished = once(parser, "finish");
  parser.end();
  await finished;
  if (broken) throw broken;
  yield drain(true);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

function describe(error: CsvError): string {
  if (error.code === "CSV_QUOTE_NOT_CLOSED")
    return "a quoted value that starts in this row is never closed, so the rest of the file was read as part of it; check for a stray double quote";
  return `it could not be read as CSV (${error.message})`;
}
