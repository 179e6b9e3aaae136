/**
 * One linear pass over a CSV text, before any job exists: where the header record is, how many
 * records follow it, and the first record past an input limit (too many cells, a cell too long,
 * too many interests). Quotes are followed as csv-parse reads them with `relax_quotes`, so a quoted
 * line break continues its record; on malformed quoting the counts are estimates and the parse
 * stage has the last word.
 */
import { overLimit, rowName, type InputLimits } from "../../../limits.js";
import type { Outcome } from "../../../outcomes.js";

/** Where the header record starts, and its row (1 unless blank lines come first). */
export type HeaderStart = { start: number; row: number };

/** A record past a limit: its row, and which limit (with the figure that broke it, where it was counted). */
export type ScanBreach = { row: number } & (
  | { limit: "cells"; cells: number }
  | { limit: "cellChars" }
  | { limit: "interests"; interests: number }
  | { limit: "rows" }
);

const QUOTE = 34;
const CR = 13;
const LF = 10;
const SEMICOLON = 59;
const PIPE = 124;
const SPACE = 32;
const TAB = 9;

/**
 * Where the first line that holds more than blanks starts (a leading BOM is skipped). Only the
 * blanks before it are looked at: where it ends is the scan's to find.
 */
export function findHeader(text: string): HeaderStart | undefined {
  let row = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === 0xfeff) continue;
    if (c !== CR && c !== LF) return { start: lineStart, row };
    if (c === CR && text.charCodeAt(i + 1) === LF) i++;
    row++;
    lineStart = i + 1;
  }
  return undefined;
}

/** The start of the record after the line break at `end`. */
const nextRecord = (text: string, end: number) =>
  text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;

/** Characters scanned between two turns of the event loop, give or take a cell (at most maxCellChars). */
const SLICE_CHARS = 128 * 1024;

type ScanLimits = Pick<InputLimits, "maxRows" | "maxCellsPerRow" | "maxCellChars" | "maxInterestsPerPerson">;

/** Where a scan stands between slices: in a record, at a cell's start; or at a record's start. */
type ScanState = {
  pos: number;
  /** Where the header record ends, once it has been scanned. */
  headerEnd: number;
  row: number;
  last: number;
  isHeader: boolean;
  /** Within the record: its cells so far, and the interests and text of the interests cell. */
  cells: number;
  items: number;
  blank: boolean;
  breach?: ScanBreach;
};

/**
 * Counts the rows after the header, up to the last one with text (blank lines at the end are not
 * rows; those between rows are, as empty rows), and returns the first record past a limit, if any:
 * it stops there, so a text past a limit costs no more than the limit. `interests` is the column
 * whose `;`/`|` lists are counted (-1 for none). Linear in the text, every character looked at
 * once, in slices with a turn of the event loop (`pace`) between them.
 */
export async function scanRecords(
  text: string,
  header: HeaderStart,
  separator: string,
  interests: number,
  limits: ScanLimits,
  pace: () => Promise<void>,
  { onlyHeader = false }: { onlyHeader?: boolean } = {},
): Promise<{ rows: number; headerEnd: number; breach?: ScanBreach }> {
  // the header is measured too: a text of one huge line is refused by its cells
  const state: ScanState = {
    pos: header.start,
    headerEnd: -1,
    row: header.row,
    last: header.row,
    isHeader: true,
    cells: 0,
    items: 0,
    blank: true,
  };
  while (state.pos < text.length && state.breach === undefined && !(onlyHeader && state.headerEnd !== -1)) {
    scanSlice(text, state, separator.charCodeAt(0), interests, limits, header.row);
    await pace();
  }
  const headerEnd = state.headerEnd === -1 ? text.length : state.headerEnd;
  return { rows: state.last - header.row, headerEnd, breach: state.breach };
}

/**
 * Scans from `state.pos` until about SLICE_CHARS further (it stops at a cell's start), or a breach.
 * Synchronous and free of closures, so that its loop stays fast.
 */
function scanSlice(
  text: string,
  state: ScanState,
  sep: number,
  interests: number,
  limits: ScanLimits,
  headerRow: number,
) {
  const len = text.length;
  const until = state.pos + SLICE_CHARS;
  // a record the last slice stopped in goes on from the start of a cell
  let resumed = state.cells > 0;
  while (state.pos < len) {
    if (!resumed) startRecord(state);
    resumed = false;
    const end = scanCells(text, state, sep, interests, limits, until);
    if (end === PAUSED) return;
    if (end !== BREACHED) endRecord(text, state, end, limits.maxRows, headerRow);
    if (state.breach !== undefined) {
      state.pos = len;
      break;
    }
    if (state.pos >= until) break;
  }
  // the next slice starts at a record's start
  startRecord(state);
  state.cells = 0;
}

/** scanCells stopped at a cell's start, the slice used up; the record's state is kept in `state`. */
const PAUSED = -1;
/** scanCells found the record past a limit, in `state.breach`. */
const BREACHED = -2;

/** Sets `state` to a fresh record: one cell, no interests, no text yet. */
function startRecord(state: ScanState) {
  state.cells = 1;
  state.items = 0;
  state.blank = true;
}

/**
 * Scans the record at `state.pos` cell by cell, from a cell's start, counting in `state` its cells,
 * the interests of its interests cell and whether it holds text. Returns where it ends (its line
 * break, or the text's end), or PAUSED at a cell's start past `until`, or BREACHED.
 */
function scanCells(text: string, state: ScanState, sep: number, interests: number, limits: ScanLimits, until: number) {
  const len = text.length;
  const { maxCellChars, maxCellsPerRow, maxInterestsPerPerson } = limits;
  // the header's cells are names, not interests to count against the limit
  const limited = !state.isHeader;
  let { cells, items, blank } = state;
  let cellFrom = state.pos;
  let quoted = false;
  let cellStart = true;
  let itemHasText = false;
  let i = state.pos;
  for (; i < len; i++) {
    if (i - cellFrom > maxCellChars) return breach(state, { row: state.row, limit: "cellChars" });
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) i++;
        else quoted = false;
        continue;
      }
    } else if (c === LF || c === CR) break;
    else if (c === sep) {
      if (itemHasText) items++;
      if (limited && cells - 1 === interests && items > maxInterestsPerPerson)
        return breach(state, { row: state.row, limit: "interests", interests: items });
      if (++cells > maxCellsPerRow)
        return breach(state, { row: state.row, limit: "cells", cells: countCells(text, i, sep, cells) });
      cellFrom = i + 1;
      cellStart = true;
      items = 0;
      itemHasText = false;
      if (i >= until) {
        Object.assign(state, { pos: i + 1, cells, items, blank });
        return PAUSED;
      }
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
  if (itemHasText) items++;
  if (limited && cells - 1 === interests && items > maxInterestsPerPerson)
    return breach(state, { row: state.row, limit: "interests", interests: items });
  state.blank = blank;
  return i;
}

/** Records the breach in `state`; returns BREACHED. */
function breach(state: ScanState, found: ScanBreach) {
  state.breach = found;
  return BREACHED;
}

/** Settles the record that ends at `end`: counts it as a row, and moves to the next record. */
function endRecord(text: string, state: ScanState, end: number, maxRows: number, headerRow: number) {
  if (!state.blank) state.last = state.row;
  if (state.last - headerRow > maxRows) {
    breach(state, { row: state.row, limit: "rows" });
    return;
  }
  if (state.isHeader) {
    state.headerEnd = end;
    state.isHeader = false;
  }
  state.row++;
  state.pos = nextRecord(text, end);
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
export function splitRecord(text: string, start: number, end: number, separator: string): string[] {
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

/** The refusal a record past a limit gets, worded as every input form words it; `what` names the input. */
export function breachRefusal<T>(breach: ScanBreach, what: string, limits: InputLimits): Outcome<T> {
  const where = rowName(breach.row);
  if (breach.limit === "cells") return overLimit.cells(where, breach.cells, limits);
  if (breach.limit === "cellChars") return overLimit.cellChars(where, undefined, limits);
  if (breach.limit === "rows") return overLimit.rows(what, undefined, limits);
  return overLimit.interests(where, breach.interests, limits);
}
