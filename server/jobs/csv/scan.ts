/**
 * One linear pass over a CSV text, before any job exists: where the header record is, how many
 * records follow it, and the first record past an input limit (too many cells, a cell too long,
 * too many interests). Quotes are followed as csv-parse reads them with `relax_quotes`, so a quoted
 * line break continues its record; on malformed quoting the counts are estimates and the parse
 * stage has the last word.
 */
import type { InputLimits } from "../limits.js";

/** Where the header record is: `[start, end)` in the text, and its row (1 unless blank lines come first). */
export type HeaderSpan = { start: number; end: number; row: number };

/** A record past a limit: its row, and which limit with the figure that broke it. */
export type ScanBreach = { row: number } & (
  { limit: "cells"; cells: number } | { limit: "cellChars"; chars: number } | { limit: "interests"; interests: number }
);

const QUOTE = 34;
const CR = 13;
const LF = 10;
const SEMICOLON = 59;
const PIPE = 124;
const SPACE = 32;
const TAB = 9;

/** The first record that holds more than blanks (a leading BOM is skipped). */
export function findHeader(text: string, separator: string): HeaderSpan | undefined {
  let row = 0;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const sep = separator.charCodeAt(0);
  while (pos < text.length) {
    row++;
    const end = recordEnd(text, pos, sep);
    if (hasText(text, pos, end)) return { start: pos, end, row };
    pos = nextRecord(text, end);
  }
  return undefined;
}

function hasText(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== CR && c !== LF && c !== 0xfeff) return true;
  }
  return false;
}

/** Where the record starting at `pos` ends (its line break, or the text's end), quotes followed. */
function recordEnd(text: string, pos: number, sep: number): number {
  let cellStart = true;
  let quoted = false;
  for (let i = pos; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) i++;
        else quoted = false;
      }
    } else if (c === LF || c === CR) return i;
    else if (c === sep) cellStart = true;
    else {
      if (c === QUOTE && cellStart) quoted = true;
      cellStart = false;
    }
  }
  return text.length;
}

/** The start of the record after the line break at `end`. */
const nextRecord = (text: string, end: number) =>
  text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;

/**
 * Counts the rows after the header, up to the last one with text (blank lines at the end are not
 * rows; those between rows are, as empty rows) and returns the first record past a limit, if any. `interests` is the column whose `;`/`|` lists are
 * counted (-1 for none). Linear in the text: every character is looked at once.
 */
export function scanRecords(
  text: string,
  header: HeaderSpan,
  separator: string,
  interests: number,
  limits: Pick<InputLimits, "maxCellsPerRow" | "maxCellChars" | "maxInterestsPerPerson">,
): { rows: number; breach?: ScanBreach } {
  const sep = separator.charCodeAt(0);
  const len = text.length;
  let last = header.row; // the last row with text
  let row = header.row;
  const refuse = (breach: ScanBreach) => ({ rows: last - header.row, breach });
  let pos = header.start;
  // the header is measured too: a text of one huge line is refused by its cells
  let isHeader = true;
  while (pos < len) {
    let cells = 1;
    let cellFrom = pos;
    let quoted = false;
    let cellStart = true;
    let items = 0;
    let itemHasText = false;
    let blank = true;
    let i = pos;
    for (; i < len; i++) {
      const c = text.charCodeAt(i);
      if (quoted) {
        if (c === QUOTE) {
          if (text.charCodeAt(i + 1) === QUOTE) i++;
          else quoted = false;
          continue;
        }
      } else if (c === LF || c === CR) break;
      else if (c === sep) {
        if (i - cellFrom > limits.maxCellChars) return refuse({ row, limit: "cellChars", chars: i - cellFrom });
        if (itemHasText) items++;
        if (!isHeader && cells - 1 === interests && items > limits.maxInterestsPerPerson)
          return refuse({ row, limit: "interests", interests: items });
        if (++cells > limits.maxCellsPerRow)
          return refuse({ row, limit: "cells", cells: countCells(text, i, sep, cells) });
        cellFrom = i + 1;
        cellStart = true;
        items = 0;
        itemHasText = false;
        continue;
      } else if (c === QUOTE && cellStart) {
        quoted = true;
        cellStart = false;
        continue;
      }
      cellStart = false;
      if (blank && c !== SPACE && c !== TAB && c !== QUOTE) blank = false;
      if (cells - 1 !== interests) continue;
      if (c === SEMICOLON || c === PIPE) {
        if (itemHasText) items++;
        itemHasText = false;
      } else if (c !== SPACE && c !== TAB && c !== QUOTE) itemHasText = true;
    }
    if (i - cellFrom > limits.maxCellChars) return refuse({ row, limit: "cellChars", chars: i - cellFrom });
    if (itemHasText) items++;
    if (!isHeader && cells - 1 === interests && items > limits.maxInterestsPerPerson)
      return refuse({ row, limit: "interests", interests: items });
    if (!blank) last = row;
    isHeader = false;
    row++;
    pos = nextRecord(text, i);
  }
  return { rows: last - header.row };
}

/** The cells of a record too wide to measure as it goes: counted to its end, quotes aside. */
function countCells(text: string, from: number, sep: number, before: number): number {
  let cells = before;
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) break;
    if (c === sep) cells++;
  }
  return cells;
}

/** The cells of the record `[start, end)`, unquoted as csv-parse reads them (for a header line). */
export function splitRecord(text: string, { start, end }: HeaderSpan, separator: string): string[] {
  const sep = separator.charCodeAt(0);
  const cells: string[] = [];
  let cell = "";
  let from = start;
  let quoted = false;
  let cellStart = true;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c !== QUOTE) continue;
      cell += text.slice(from, i);
      if (text.charCodeAt(i + 1) === QUOTE) from = ++i;
      else {
        quoted = false;
        from = i + 1;
      }
    } else if (c === sep) {
      cells.push(cell + text.slice(from, i));
      cell = "";
      from = i + 1;
      cellStart = true;
    } else if (c === QUOTE && cellStart) {
      quoted = true;
      from = i + 1;
      cellStart = false;
    } else cellStart = false;
  }
  cells.push(cell + text.slice(from, end));
  return cells;
}
