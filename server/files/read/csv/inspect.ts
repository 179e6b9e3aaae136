/**
 * The look at a model's CSV text before any job exists: size, separator, header, rows and every input limit, so
 * a bad text is refused at once with a sentence that says how to fix it. One linear pass (the staff-file reader's
 * too, before csv-parse splits a file) finds the header, the records and the first past a limit, quotes read as
 * csv-parse's `relax_quotes` reads them; on malformed quoting counts are estimates and the parse has the last word.
 */
import { parse } from "csv-parse/sync";
import type { ColumnMap } from "../../../../shared/files.js";
import { columnNames, matchHeaders, normalizeHeader } from "../headers.js";
import { detectSeparator } from "../separator.js";
import { createPace, type Pace } from "../pace.js";
import { overLimit, rowName, type InputLimits } from "../../../limits.js";
import { fail, ok, type Outcome } from "../../../outcomes.js";
import { isBlank } from "../grid-row.js";

/**
 * Where each column is in a record (-1 for none). `row` and `skip` are a staff file's job input's
 * (the row the file showed, and why the reader skipped it); records up to `headerRow` are no data.
 */
export type CsvColumns = ColumnMap & { row: number; skip: number; width: number; separator: string; headerRow: number };
export type CsvPlan = { columns: CsvColumns; rows: number };

const EXPECTED = `${columnNames("name")} and ${columnNames("interests")} (items separated by ; | , or /), optionally department, budget and an employee ID (사번)`;
const invalid = (message: string, hint: string) => fail("invalid_csv", message, hint);

/** The plan for a good text, or the error that says what is wrong. */
export async function inspectCsv(csv: string, limits: InputLimits): Promise<Outcome<CsvPlan>> {
  const pace = createPace();
  const bytes = Buffer.byteLength(csv, "utf8");
  if (bytes > limits.maxCsvBytes) return overLimit.bytes("The CSV", bytes, limits);
  const separator = detectSeparator(csv);
  const header = findHeader(csv);
  if (header === undefined)
    return invalid("The CSV is empty.", `Send a header line with the columns ${EXPECTED}, then one line per employee.`);
  // the header alone first: a text of one huge line is refused before it is split
  const first = await scanRecords(csv, header, separator, -1, limits, pace, { onlyHeader: true });
  if (first.breach) return breachRefusal(first.breach, "The CSV", limits);
  const columns = readHeader(splitRecord(csv, header.start, first.headerEnd, separator), separator, header.row);
  if (!columns.ok) return columns;
  const { rows, breach } = await scanRecords(csv, header, separator, columns.value.interests, limits, pace);
  if (breach) return breachRefusal(breach, "The CSV", limits);
  if (rows === 0)
    return invalid("The CSV has a header but no employee rows.", "Add one line per employee under the header.");
  return ok({ columns: columns.value, rows });
}

function readHeader(names: string[], separator: string, headerRow: number): Outcome<CsvColumns> {
  const { columns, missing, twice } = matchHeaders(names);
  if (missing.length > 0) {
    const seen = isBlank(names) ? "is empty" : `has ${names.map((n) => JSON.stringify(n.trim())).join(", ")}`;
    return invalid(
      `The CSV has no ${missing.map((m) => `"${m}"`).join(" or ")} column: its header ${seen}.`,
      `The header must name the columns ${EXPECTED}.`,
    );
  }
  if (twice.length > 0)
    return invalid(`The CSV has two "${twice[0]}" columns.`, "Keep one of them and send the file again.");
  const normalized = names.map(normalizeHeader);
  return ok({
    ...columns,
    row: normalized.indexOf("row"),
    skip: normalized.indexOf("skip"),
    width: names.length,
    separator,
    headerRow,
  });
}

export type HeaderStart = { start: number; row: number };

/** A record past a limit: its row, which limit, and the figure where it was counted. */
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

/** Where the first line that holds more than blanks (or a BOM) starts. */
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

/** Characters scanned between two turns of the event loop, give or take a cell (at most maxCellChars). */
const SLICE_CHARS = 128 * 1024;

type ScanLimits = Pick<InputLimits, "maxRows" | "maxCellsPerRow" | "maxCellChars" | "maxInterestsPerPerson">;

/** A scan and where it stands between slices: in a record at a cell's start, or at a record's start. */
class ScanState {
  headerEnd = -1; // until the header record is scanned
  row: number;
  last: number;
  /** Within the record (0 at its start): its cells so far, the interests counted, whether it has text. */
  cells = 0;
  items = 0;
  blank = true;
  breach?: ScanBreach;

  constructor(
    readonly text: string,
    readonly sep: number,
    readonly interests: number,
    readonly limits: ScanLimits,
    readonly headerRow: number,
    public pos: number,
  ) {
    this.row = this.last = headerRow;
  }
}

/**
 * Counts the rows after the header up to the last with text, and stops at the first record past a
 * limit, so a text past one costs no more than the limit. `interests` is the column whose lists are
 * counted (-1 for none). Every character is looked at once, in slices with `pace` between them.
 */
export async function scanRecords(
  text: string,
  header: HeaderStart,
  separator: string,
  interests: number,
  limits: ScanLimits,
  pace: Pace,
  { onlyHeader = false }: { onlyHeader?: boolean } = {},
): Promise<{ rows: number; headerEnd: number; breach?: ScanBreach }> {
  const state = new ScanState(text, separator.charCodeAt(0), interests, limits, header.row, header.start);
  while (state.pos < text.length && state.breach === undefined && !(onlyHeader && state.headerEnd !== -1)) {
    scanSlice(state);
    await pace();
  }
  const headerEnd = state.headerEnd === -1 ? text.length : state.headerEnd;
  return { rows: state.last - header.row, headerEnd, breach: state.breach };
}

/** Scans about SLICE_CHARS from `state.pos` (to a cell's start), or to a breach; no closures, for speed. */
function scanSlice(state: ScanState) {
  const until = state.pos + SLICE_CHARS;
  while (state.pos < state.text.length && state.breach === undefined) {
    if (state.cells === 0) Object.assign(state, { cells: 1, items: 0, blank: true });
    const end = scanCells(state, until);
    if (end === PAUSED) return;
    if (end !== BREACHED) endRecord(state, end);
    state.cells = 0;
    if (state.pos >= until) return;
  }
}

/** scanCells stopped at a cell's start, the slice used up, or found a breach (`state.breach`). */
const PAUSED = -1;
const BREACHED = -2;

/** Scans the record at `state.pos` from a cell's start; returns where it ends, PAUSED or BREACHED. */
function scanCells(state: ScanState, until: number) {
  const { text, sep, interests } = state;
  const len = text.length;
  const { maxCellChars, maxCellsPerRow, maxInterestsPerPerson } = state.limits;
  // the header's cells are names, not interests to count against the limit
  const limited = state.headerEnd !== -1;
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

function breach(state: ScanState, found: ScanBreach) {
  state.breach = found;
  return BREACHED;
}

function endRecord(state: ScanState, end: number) {
  if (!state.blank) state.last = state.row;
  if (state.last - state.headerRow > state.limits.maxRows) return breach(state, { row: state.row, limit: "rows" });
  if (state.headerEnd === -1) state.headerEnd = end;
  state.row++;
  state.pos = state.text.charCodeAt(end) === CR && state.text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
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

/** The cells of the record `[start, end)` as csv-parse reads them (a header line); an unclosed quote ends with it. */
export function splitRecord(text: string, start: number, end: number, separator: string): string[] {
  const read = (line: string): string[] =>
    parse(line, { delimiter: separator, relax_quotes: true, relax_column_count: true })[0] ?? [""];
  try {
    return read(text.slice(start, end));
  } catch {
    return read(`${text.slice(start, end)}"`);
  }
}

/** The refusal of a record past a limit; `what` names the input. */
export function breachRefusal<T>(breach: ScanBreach, what: string, limits: InputLimits): Outcome<T> {
  const where = rowName(breach.row);
  if (breach.limit === "cells") return overLimit.cells(where, breach.cells, limits);
  if (breach.limit === "cellChars") return overLimit.cellChars(where, undefined, limits);
  if (breach.limit === "rows") return overLimit.rows(what, undefined, limits);
  return overLimit.interests(where, breach.interests, limits);
}
