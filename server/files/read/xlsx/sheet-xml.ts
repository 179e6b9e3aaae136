/**
 * A worksheet's XML read into rows of text as the sheet shows them: every kind of cell (shared,
 * inline and rich strings, cached formula results, numbers, dates, booleans, errors), cells and
 * rows without a reference taken as the next ones, and the merged ranges listed after the rows.
 * Handed to `parseXmlPart` as its handlers; the rows it completes wait in `rows` to be taken.
 */
import { fail } from "../../../outcomes.js";
import type { GridRow } from "../grid-row.js";
import { Refused } from "../refused.js";
import { NOT_A_WORKBOOK } from "./unzip.js";
import { dateText, numberText, type NumberKind } from "./number-format.js";
import { cut } from "./read-limits.js";
import type { XmlHandlers } from "./xml-part.js";

/** What a sheet's cells are read against. */
export type SheetContext = { strings: string[]; styles: NumberKind[]; date1904: boolean; maxMerges: number };

/** A merged range, 1-based and inclusive. */
export type Merge = { top: number; left: number; bottom: number; right: number };

const MAX_ROW = 1_048_576;
const MAX_COLUMN = 16_384; // XFD

const badCell = (what: string) =>
  new Refused(fail("unreadable_file", `The workbook has ${what}, which no spreadsheet has.`, NOT_A_WORKBOOK));

/** "C12" → [3, 12]; throws `Refused` for a reference no sheet has ("XFE2", "A0", "A-1"). */
function cellRef(ref: string): [column: number, row: number] {
  const m = /^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$/.exec(ref);
  let column = 0;
  if (m !== null) for (const c of m[1].toUpperCase()) column = column * 26 + c.charCodeAt(0) - 64;
  const row = m === null ? 0 : Number(m[2]);
  if (column < 1 || column > MAX_COLUMN || row < 1 || row > MAX_ROW)
    throw badCell(`a cell at ${JSON.stringify(cut(ref, 40))}`);
  return [column, row];
}

export class SheetXml implements XmlHandlers {
  /** Rows completed and not yet taken. */
  rows: GridRow[] = [];
  readonly merges: Merge[] = [];
  /** Rows opened so far (those the parser saw, closed or not). */
  opened = 0;
  /** Takes over from the parser when set and taking (a first look at a sheet: sheet-scan.ts). */
  scan?: XmlHandlers["scan"];
  private row = 0;
  private cells: string[] = [];
  private column = 0;
  private type = "";
  private style = 0;
  private value: string[] = [];
  private inline: string[] = [];
  /** Where text goes: 1 inside `<v>`, 2 inside an inline string's `<t>`. */
  private collecting = 0;
  private phonetic = 0;

  constructor(private readonly context: SheetContext) {}

  open(name: string, a: Record<string, string>): void {
    switch (name) {
      case "row":
        return this.openRow(a.r);
      case "c":
        this.column = a.r === undefined ? this.column + 1 : cellRef(a.r)[0];
        this.type = a.t ?? "n";
        this.style = a.s === undefined ? 0 : Number(a.s);
        this.value = [];
        this.inline = [];
        return;
      case "v":
        this.collecting = 1;
        return;
      case "t":
        if (this.phonetic === 0 && this.type === "inlineStr") this.collecting = 2;
        return;
      case "rPh":
        this.phonetic++;
        return;
      case "mergeCell":
        return this.addMerge(a.ref ?? "");
    }
  }

  close(name: string): void {
    if (name === "v" || name === "t") this.collecting = 0;
    else if (name === "rPh") this.phonetic--;
    else if (name === "c") this.cells[this.column - 1] = this.cellText();
    else if (name === "row") this.closeRow();
  }

  text(text: string): void {
    if (this.collecting === 1) this.value.push(text);
    else if (this.collecting === 2) this.inline.push(text);
  }

  private openRow(r: string | undefined): void {
    const number = r === undefined ? this.row + 1 : /^[0-9]{1,7}$/.test(r) ? Number(r) : -1;
    if (number < 1 || number > MAX_ROW) throw badCell(`a row numbered ${JSON.stringify(cut(r ?? "", 40))}`);
    if (number <= this.row) throw badCell(`row ${number} after row ${this.row}`);
    this.row = number;
    this.opened++;
    this.cells = [];
    this.column = 0;
  }

  private closeRow(): void {
    const cells = this.cells;
    let width = cells.length;
    while (width > 0 && (cells[width - 1] === undefined || cells[width - 1] === "")) width--;
    cells.length = width;
    for (let i = 0; i < width; i++) if (cells[i] === undefined) cells[i] = "";
    this.rows.push({ row: this.row, cells });
  }

  private cellText(): string {
    const v = this.value.length === 1 ? this.value[0] : this.value.join("");
    switch (this.type) {
      case "s": {
        const text = this.context.strings[Number(v)];
        if (text === undefined) throw badCell(`a cell that names shared text #${cut(v, 20)} it does not hold`);
        return text;
      }
      case "inlineStr":
        return this.inline.length > 0 ? this.inline.join("") : v;
      case "b":
        return v === "" ? "" : v === "1" || v === "true" ? "TRUE" : "FALSE";
      case "str":
      case "e":
        return v;
      case "d":
        return v.replace(/T00:00:00(\.0+)?Z?$/, "").replace(/(\.\d+)?Z$/, "");
      default:
        return this.numberCell(v);
    }
  }

  private numberCell(v: string): string {
    if (v.trim() === "") return this.inline.join("");
    const n = Number(v);
    if (Number.isNaN(n)) return v;
    const kind = this.context.styles[this.style] ?? "number";
    return kind === "number" ? numberText(n) : dateText(n, kind, this.context.date1904);
  }

  /** Adds the merged range at `ref` ("A1:C1"), unless past the limit. */
  addMerge(ref: string): void {
    if (this.merges.length >= this.context.maxMerges) return;
    const [from, to = from] = ref.split(":");
    const [left, top] = cellRef(from);
    const [right, bottom] = cellRef(to);
    if (right >= left && bottom >= top && (right > left || bottom > top))
      this.merges.push({ top, left, bottom, right });
  }
}
