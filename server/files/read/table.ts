/**
 * A staff list's rows, however read, made into the preview and the job input: the header found
 * (title rows above it passed over), every row after it a person or a skipped row (through the job's
 * own ledger), and one canonical CSV with the file's row numbers, so the job skips what the preview said.
 */
import { COLUMN_KEYS, type Reading, type SkippedRow, type StaffPreview } from "../../../shared/files.js";
import type { Currency } from "../../../shared/money.js";
import { readMoney } from "../../../shared/read-money.js";
import { CHEAPEST } from "../../gifts/catalog.js";
import { createLedger, type Ledger } from "./people/ledger.js";
import type { CsvColumns } from "./csv/inspect.js";
import { countInterests } from "./people/interests.js";
import { EMPTY_ROW, readRecord, type Person } from "./people/rows.js";
import { overLimit, readInputLimits, rowName, type InputLimits } from "../../limits.js";
import { ok, type Outcome } from "../../outcomes.js";
import { csvField } from "../export/result-csv.js";
import { isBlank, Refused, type CellRow, type GridRow } from "./grid-row.js";
import { HEADER_CANDIDATES, mappedCount, matchHeaders, type HeaderMatch } from "./headers.js";
import type { Pace } from "./pace.js";
import { problemsOf, type ProblemFacts } from "./preview-text.js";

/** The preview's fields the table does not decide; those of the other format are left out. */
export type SourceInfo = Pick<StaffPreview, "fileName" | "format"> &
  Partial<Pick<StaffPreview, "encoding" | "encodingCertain" | "separator" | "sheets" | "sheet">>;

/** The preview (its `uploadId` left null for the caller to set) and the job's CSV input. */
export type StaffTable = { preview: StaffPreview; csv: string };

const SAMPLE_ROWS = 10;
const SKIPPED_SHOWN = 100;
const LOW_BUDGET_ROWS = 10;
/** Rows held at most before the header is decided, blank ones included. */
const HELD_ROWS = 1_000;
/** The job input's columns; the ID last, so that the job knows people by it as the preview did. */
const CANONICAL_HEADER = "row,name,department,interests,budget,skip,id";

export type TableOptions = { reading: Reading; limits: InputLimits; pace: Pace };

/** Reads `batches` into a table; a limit passed throws `Refused`. */
export async function buildTable(
  batches: AsyncIterable<GridRow[]>,
  source: SourceInfo,
  options: TableOptions,
): Promise<Outcome<StaffTable>> {
  const table = new TableReading(source.format, options);
  for await (const batch of batches) {
    for (const row of batch) {
      table.take(row);
      await options.pace();
    }
  }
  return table.finish(source);
}

type Header = { names: string[]; row: number; mapping: HeaderMatch; columns: CsvColumns };

/** One reading of a source into a table, refused past the bounds of `readInputLimits`. */
class TableReading {
  private held: GridRow[] = [];
  private heldWithText = 0;
  private header: Header | undefined;
  private lastRow = 0;
  private lastWithText = 0;
  private readonly sample: StaffPreview["sample"] = [];
  private readonly skipped: SkippedRow[] = [];
  private people = 0;
  private skippedCount = 0;
  private readonly low = { count: 0, rows: [] as number[] };
  /** Budgets given in the job's currency, and rows skipped for a budget in another, by currency. */
  private ownBudgets = 0;
  private readonly otherBudgets = new Map<Currency, number>();
  private readonly input = [CANONICAL_HEADER];
  private inputBytes = CANONICAL_HEADER.length + 1;
  private readonly inputLimits: InputLimits;
  private readonly ledger: Ledger<string[] | null>;
  private readonly currency: Currency;

  constructor(
    private readonly format: SourceInfo["format"],
    private readonly options: TableOptions,
  ) {
    this.inputLimits = readInputLimits(options.limits);
    this.currency = options.reading.currency ?? "USD";
    this.ledger = createLedger(this.settle, { mergeDuplicates: options.reading.mergeDuplicates });
  }

  take(r: GridRow): void {
    if ("cells" in r) this.checkCells(r.row, r.cells);
    if (this.header !== undefined) return this.readRow(this.header, r);
    this.held.push(r);
    if ("cells" in r && !isBlank(r.cells)) this.heldWithText++;
    if (this.heldWithText >= HEADER_CANDIDATES || this.held.length >= HELD_ROWS) this.decideHeader();
  }

  /** No more rows: the header decided if it is not yet, and the table made. */
  finish(info: SourceInfo): Outcome<StaffTable> {
    if (this.header === undefined) this.decideHeader();
    this.ledger.end();
    const { fileName, format, ...given } = info;
    const none = { encoding: null, encodingCertain: true, separator: null, sheets: [], sheet: null };
    const source = { fileName, format, ...none, ...given };
    const { header, people, sample, skipped, skippedCount } = this;
    const rows = this.lastWithText - (header?.row ?? 0);
    const headers = header?.names ?? [];
    const mapping = header?.mapping;
    const otherCurrency = this.otherCurrency();
    const problems = problemsOf({ source, headers, mapping, rows, people, otherCurrency });
    const duplicates = this.ledger.duplicates();
    const preview: StaffPreview = {
      uploadId: null,
      ...source,
      headers,
      columns: mapping?.columns ?? { name: -1, department: -1, interests: -1, budget: -1, id: -1 },
      rows,
      people,
      sample,
      skipped,
      skippedCount,
      possibleDuplicates: duplicates.groups,
      possibleDuplicateCount: duplicates.count,
      problems,
      ready: problems.length === 0,
      currency: this.currency,
      ...(this.low.count > 0 && { lowBudgets: { ...this.low, cheapest: CHEAPEST[this.currency] } }),
      ...(otherCurrency && { otherCurrency: otherCurrency.currency }),
    };
    return ok({ preview, csv: `${this.input.join("\n")}\n` });
  }

  /** The currency most skipped budgets are written in, when they outnumber the budgets in the job's. */
  private otherCurrency(): ProblemFacts["otherCurrency"] {
    const [currency, count] = [...this.otherBudgets].reduce((a, b) => (b[1] > a[1] ? b : a), ["USD", 0]);
    return count > this.ownBudgets ? { currency, count, job: this.currency } : undefined;
  }

  /** The first held row that names every required column, else the first naming the most; none without text. */
  private decideHeader(): void {
    const candidates = this.held.filter((r): r is CellRow => "cells" in r && !isBlank(r.cells));
    if (candidates.length === 0) return;
    const scored = candidates.slice(0, HEADER_CANDIDATES).map((r) => matchHeaders(r.cells));
    const fits = scored.findIndex((m) => m.missing.length === 0);
    const found = scored.map(mappedCount);
    const pick = fits === -1 ? found.indexOf(Math.max(...found)) : fits;
    const row = candidates[pick].row;
    const names = candidates[pick].cells.map((h) => h.trim());
    const mapping = matchHeaders(names, this.options.reading.columns);
    const columns = { ...mapping.columns, row: -1, skip: -1, width: names.length, separator: ",", headerRow: row };
    const header = (this.header = { names, row, mapping, columns });
    this.lastRow = this.lastWithText = row;
    const after = this.held.filter((r) => r.row > row);
    this.held = [];
    for (const r of after) this.readRow(header, r);
  }

  private readRow(header: Header, r: GridRow): void {
    const { limits } = this.options;
    const c = header.columns;
    // a CSV record of another width than the header's is skipped; a sheet's rows are fitted
    const cells = "cells" in r ? (this.format === "csv" ? r.cells : fit(r.cells, c.width)) : null;
    const blank = cells !== null && isBlank(cells);
    const beyond = r.row - header.row > limits.maxRows;
    if (blank && beyond) return; // trailing, unless a row with text follows, which is refused
    if (!blank) {
      if (beyond) throw new Refused(overLimit.rows("The file", r.row - header.row, limits));
      this.lastWithText = r.row;
    }
    if (header.mapping.missing.length > 0) {
      // no job can read the rows yet: show the first as they are, for the person to map the columns
      if (!blank && cells !== null && this.sample.length < SAMPLE_ROWS) {
        const [name, department, interests, budget, id] = COLUMN_KEYS.map((k) => cell(cells, c[k]));
        this.sample.push({ row: r.row, name, department, interests, budget, ...(c.id === -1 ? {} : { id }) });
      }
      return;
    }
    // rows a sheet leaves out are empty rows, as the spreadsheet shows them
    for (let gap = this.lastRow + 1; gap < r.row; gap++) this.ledger.add({ row: gap, reason: EMPTY_ROW }, null);
    this.lastRow = Math.max(this.lastRow, r.row);
    if (cells === null) return this.ledger.add({ row: r.row, reason: "reason" in r ? r.reason : "" }, null);
    // budgets in the job's currency: one in another is skipped, saying so, before the job starts
    const read = readRecord(cells, r.row, c, 1, this.options.reading.currency);
    if ("reason" in read) {
      const written = readMoney(cell(cells, c.budget).trim())?.currency; // undefined for a blank cell too
      if (written !== undefined && written !== this.currency)
        this.otherBudgets.set(written, (this.otherBudgets.get(written) ?? 0) + 1);
    } else {
      const listed = countInterests(read.interestsText);
      if (listed > limits.maxInterestsPerPerson) throw new Refused(overLimit.interests(rowName(r.row), listed, limits));
    }
    this.ledger.add(read, cells);
  }

  private checkCells(row: number, cells: string[]): void {
    const { limits } = this.options;
    if (cells.length > limits.maxCellsPerRow) throw new Refused(overLimit.cells(rowName(row), cells.length, limits));
    for (const text of cells)
      if (text.length > limits.maxCellChars) throw new Refused(overLimit.cellChars(rowName(row), text.length, limits));
  }

  /** A row's fate from the ledger, which only rows after the header reach. */
  private readonly settle = (fate: Person | SkippedRow, cells: string[] | null): void => {
    const c = this.header!.columns;
    if ("reason" in fate) {
      this.skippedCount++;
      if (this.skipped.length < SKIPPED_SHOWN) this.skipped.push(fate);
      return this.write([fate.row, cell(cells, c.name), cell(cells, c.department), "", "", fate.reason, ""]);
    }
    this.people++;
    if (fate.budgetGiven) this.ownBudgets++;
    if (fate.budgetGiven && fate.budget < CHEAPEST[this.currency] && this.low.count++ < LOW_BUDGET_ROWS)
      this.low.rows.push(fate.row);
    const [interests, budget] = [cell(cells, c.interests), cell(cells, c.budget)];
    if (this.sample.length < SAMPLE_ROWS) {
      const id = fate.id === null ? {} : { id: fate.id };
      this.sample.push({ row: fate.row, name: fate.name, department: fate.department ?? "", interests, budget, ...id });
    }
    this.write([fate.row, cell(cells, c.name), cell(cells, c.department), interests, budget, "", fate.id ?? ""]);
  };

  private write(fields: (string | number)[]): void {
    const line = fields.map((f) => csvField(String(f))).join(",");
    this.input.push(line);
    this.inputBytes += Buffer.byteLength(line, "utf8") + 1;
    if (this.inputBytes > this.inputLimits.maxCsvBytes)
      throw new Refused(overLimit.bytes("The staff list, as the job reads it,", this.inputBytes, this.inputLimits));
  }
}

const cell = (cells: string[] | null, index: number) => (cells === null || index === -1 ? "" : (cells[index] ?? ""));

/** A sheet row made as wide as the header. */
const fit = (cells: string[], width: number): string[] =>
  cells.length === width ? cells : Array.from({ length: width }, (_, i) => cells[i] ?? "");
