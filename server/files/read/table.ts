/**
 * A staff list's rows, however they were read (CSV records, sheet rows), made into what a job
 * reads and what a person checks first: the header found (title rows above it passed over), its
 * columns mapped, every row after it a person or a skipped row with why (through the job's own
 * ledger), the input limits held, and the job input written as one canonical CSV that holds every
 * row with the row number the file showed, so the job skips the rows the preview said it would.
 */
import {
  COLUMN_KEYS,
  type ColumnMap,
  type Reading,
  type SkippedRow,
  type StaffPreview,
} from "../../../shared/files.js";
import { createLedger } from "../../jobs/csv/ledger.js";
import type { CsvColumns } from "../../jobs/csv/inspect.js";
import { countInterests, EMPTY_ROW, readRecord, type Person } from "../../jobs/csv/rows.js";
import { overLimit, rowName, type InputLimits } from "../../jobs/limits.js";
import { ok, type Outcome } from "../../jobs/outcomes.js";
import { matchHeaders } from "./headers.js";
import type { Pace } from "./pace.js";
import { problemsOf } from "./problems.js";

/** One row of the source: its cells, or why it could not be read. */
export type GridRow = { row: number; cells: string[] } | { row: number; reason: string };

/** How the source was read; the preview's fields the table does not decide. */
export type SourceInfo = Pick<
  StaffPreview,
  "fileName" | "format" | "encoding" | "encodingCertain" | "separator" | "sheets" | "sheet"
>;

/** A file read: the preview (its `uploadId` left null for the caller to set) and the job's CSV input. */
export type StaffTable = { preview: StaffPreview; csv: string };

/** The job input's header: the columns of a job plus where each row was and why it was skipped. */
const CANONICAL_HEADER = "row,name,department,interests,budget,skip";

const SAMPLE_ROWS = 10;
const SKIPPED_SHOWN = 100;
/** Non-empty rows looked at for the header: a title and a note or two may sit above it. */
const HEADER_CANDIDATES = 10;

export type TableOptions = {
  reading: Reading;
  limits: InputLimits;
  /** CSV: a record whose field count differs from the header's is skipped. A sheet's short rows are padded. */
  strictWidth: boolean;
  pace: Pace;
};

/** Thrown from inside the reading to stop it with a refusal. */
class Refused extends Error {
  constructor(readonly outcome: Outcome<never>) {
    super("refused");
  }
}

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === "");

/**
 * Reads `batches` into a table. `info` is asked for after the last batch (a workbook's sheet list
 * is known only then). A limit passed is a refusal; a file that cannot start a job yet (a column
 * missing, an encoding unsure) is a preview whose `problems` say what to settle.
 */
export async function buildTable(
  batches: AsyncIterable<GridRow[]>,
  info: () => SourceInfo,
  options: TableOptions,
): Promise<Outcome<StaffTable>> {
  const table = createTableState(options);
  try {
    for await (const batch of batches) {
      for (const row of batch) {
        table.take(row);
        await options.pace();
      }
    }
    table.finish();
  } catch (error) {
    if (error instanceof Refused) return error.outcome;
    throw error;
  }
  return table.result(info());
}

function createTableState({ reading, limits, strictWidth }: TableOptions) {
  /** Rows held until the header is known. */
  let waiting: GridRow[] = [];
  let nonBlank = 0;
  let headers: string[] | undefined;
  let headerRow = 0;
  let columns: CsvColumns | undefined;
  let mapping: ReturnType<typeof matchHeaders> | undefined;
  let lastRow = 0;
  let lastWithText = 0;
  const sample: StaffPreview["sample"] = [];
  const skipped: SkippedRow[] = [];
  let people = 0;
  let skippedCount = 0;
  const lines: string[] = [CANONICAL_HEADER];
  let bytes = CANONICAL_HEADER.length + 1;

  const write = (line: string) => {
    lines.push(line);
    bytes += Buffer.byteLength(line, "utf8") + 1;
    if (bytes > limits.maxCsvBytes)
      throw new Refused(overLimit.bytes("The staff list, as the job reads it,", bytes, limits));
  };
  const cell = (cells: string[] | null, index: number) => (cells === null || index === -1 ? "" : (cells[index] ?? ""));
  const ledger = createLedger<string[] | null>((fate: Person | SkippedRow, cells) => {
    if ("reason" in fate) {
      skippedCount++;
      if (skipped.length < SKIPPED_SHOWN) skipped.push(fate);
      write(`${fate.row},,,,,${field(fate.reason)}`);
      return;
    }
    people++;
    const c = columns!;
    const [interests, budget] = [cell(cells, c.interests), cell(cells, c.budget)];
    if (sample.length < SAMPLE_ROWS)
      sample.push({ row: fate.row, name: fate.name, department: fate.department ?? "", interests, budget });
    write([fate.row, cell(cells, c.name), cell(cells, c.department), interests, budget, ""].map(field).join(","));
  });

  function checkCells(row: number, cells: string[]) {
    if (cells.length > limits.maxCellsPerRow) throw new Refused(overLimit.cells(rowName(row), cells.length, limits));
    for (const text of cells)
      if (text.length > limits.maxCellChars) throw new Refused(overLimit.cellChars(rowName(row), text.length, limits));
  }

  /** Picks the header among the rows held, then reads the rows after it. */
  function decideHeader() {
    const candidates = waiting.filter((r): r is { row: number; cells: string[] } => "cells" in r && !isBlank(r.cells));
    if (candidates.length === 0) return;
    const scored = candidates.slice(0, HEADER_CANDIDATES).map((r) => matchHeaders(r.cells));
    let pick = scored.findIndex((m) => m.missing.length === 0);
    if (pick === -1) {
      const found = scored.map((m) => Object.values(m.columns).filter((i) => i !== -1).length);
      pick = Math.max(
        0,
        found.findIndex((n) => n > 0 && n === Math.max(...found)),
      );
    }
    const header = candidates[pick];
    headers = header.cells.map((h) => h.trim());
    headerRow = header.row;
    lastRow = lastWithText = headerRow;
    mapping = matchHeaders(headers, reading.columns);
    columns = { ...mapping.columns, row: -1, skip: -1, width: headers.length, separator: ",", headerRow };
    const after = waiting.filter((r) => r.row > headerRow);
    waiting = [];
    for (const r of after) readRow(r);
  }

  function readRow(r: GridRow) {
    const c = columns!;
    if ("cells" in r) checkCells(r.row, r.cells);
    const cells = "cells" in r ? (strictWidth ? r.cells : fit(r.cells, c.width)) : null;
    const blank = cells !== null && isBlank(cells);
    const beyond = r.row - headerRow > limits.maxRows;
    if (blank && beyond) return; // trailing, unless a row with text follows, which is refused
    if (!blank) {
      if (beyond) throw new Refused(overLimit.rows("The file", r.row - headerRow, limits));
      lastWithText = r.row;
    }
    if (mapping!.missing.length > 0) {
      // no job can read the rows yet: show the first as they are, for the person to map the columns
      if (!blank && cells !== null && sample.length < SAMPLE_ROWS) {
        const [name, department, interests, budget] = COLUMN_KEYS.map((k) => cell(cells, c[k]));
        sample.push({ row: r.row, name, department, interests, budget });
      }
      return;
    }
    // rows a sheet leaves out are empty rows, as the spreadsheet shows them
    for (let gap = lastRow + 1; gap < r.row; gap++) ledger.add({ row: gap, reason: EMPTY_ROW }, null);
    lastRow = Math.max(lastRow, r.row);
    if (cells === null) return ledger.add({ row: r.row, reason: "reason" in r ? r.reason : "" }, null);
    const read = readRecord(cells, r.row, c, 1);
    if (!("reason" in read)) {
      const listed = countInterests(read.interestsText);
      if (listed > limits.maxInterestsPerPerson) throw new Refused(overLimit.interests(rowName(r.row), listed, limits));
    }
    ledger.add(read, cells);
  }

  return {
    take(r: GridRow) {
      if (headers !== undefined) return readRow(r);
      if ("cells" in r) checkCells(r.row, r.cells);
      waiting.push(r);
      if ("cells" in r && !isBlank(r.cells)) nonBlank++;
      // title rows above a header are few: past the candidates, or a long run of rows, decide
      if (nonBlank >= HEADER_CANDIDATES || waiting.length >= 1_000) decideHeader();
    },
    finish() {
      if (headers === undefined) decideHeader();
      ledger.end();
    },
    result(source: SourceInfo): Outcome<StaffTable> {
      const rows = lastWithText - headerRow;
      const columnMap: ColumnMap = mapping?.columns ?? { name: -1, department: -1, interests: -1, budget: -1 };
      const problems = problemsOf({ source, headers: headers ?? [], mapping, rows, people });
      const preview: StaffPreview = {
        uploadId: null,
        ...source,
        headers: headers ?? [],
        columns: columnMap,
        rows,
        people,
        sample,
        skipped,
        skippedCount,
        problems,
        ready: problems.length === 0,
      };
      return ok({ preview, csv: `${lines.join("\n")}\n` });
    },
  };
}

/** A sheet row made as wide as the header: empty cells where it is short, cells past it left out. */
function fit(cells: string[], width: number): string[] {
  if (cells.length === width) return cells;
  const out = cells.slice(0, width);
  while (out.length < width) out.push("");
  return out;
}

/** A CSV field, quoted where it must be. */
const field = (value: string | number): string => {
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
