/**
 * A worksheet's XML read into rows of text as the sheet shows them: every kind of cell, cells and
 * rows without a reference taken as the next ones, and the merged ranges. Numbers as Excel shows
 * them (15 significant digits), under a date format as an ISO date, in either date system, and
 * under a currency format with its currency ("₩50000"), so a budget keeps the money it was written in.
 */
import { readMoney } from "../../../../shared/read-money.js";
import { Refused, type GridRow } from "../grid-row.js";
import { notWorkbook } from "./unzip.js";
import { cut } from "./read-limits.js";
import { parseXmlWhole, type BookReading, type XmlHandlers } from "./xml-part.js";

export type NumberKind = "number" | "date" | "time";
/** A currency format: its mark ("₩", "원", "USD"), shown before or after the number. */
type Money = { mark: string; after: boolean };
/** How a cell style shows a number. */
type Shown = NumberKind | Money;

/** Excel's built-in formats that are dates (14–17, 22, 27–36, 50–58) and times (18–21, 45–47). */
const BUILT_IN: Record<number, NumberKind> = {};
for (const id of [14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58])
  BUILT_IN[id] = "date";
for (const id of [18, 19, 20, 21, 45, 46, 47]) BUILT_IN[id] = "time";

/** What a custom format code shows: quoted text, escapes, colours and conditions aside. */
export function formatKind(code: string): NumberKind {
  const bare = code
    .split(";")[0]
    .replace(/"[^"]*"|\\.|_.|\*./g, "")
    .replace(/\[(?!h\]|hh\]|m\]|mm\]|s\]|ss\])[^\]]*\]/gi, "")
    .toLowerCase();
  if (/[yd]/.test(bare)) return "date";
  if (/[hs]/.test(bare)) return "time"; // "h:mm", "mm:ss": an m beside them is minutes
  return /m/.test(bare) ? "date" : "number"; // "mmm": a month alone
}

/**
 * The currency a custom format code shows beside its numbers ("[$₩-412]#,##0", '"₩"#,##0',
 * '#,##0"원"'), where it names one surely: a dollar of another locale than en-US's is none, and
 * Excel's built-in currency formats take the reader's locale, so they are plain numbers here.
 */
export function formatMoney(code: string): Money | undefined {
  const section = code.split(";")[0].replace(/_.|\*./g, "");
  const digit = section.search(/[0#?]/);
  for (const m of section.matchAll(/\[\$([^\]-]*)(?:-([^\]]*))?\]|"([^"]*)"|\\(.)|([$€£¥₩￦])/g)) {
    const [, bracket, locale, quoted, escaped, bare] = m;
    const mark = (bracket ?? quoted ?? escaped ?? bare).trim();
    if (mark === "$" && locale !== undefined && locale.toLowerCase() !== "409") return undefined;
    if (mark !== "" && readMoney(`1${mark}`)?.currency !== undefined) return { mark, after: m.index > digit };
  }
  return undefined;
}

/** What each cell style (an index into `cellXfs`) shows numbers as. */
export async function readStyles(book: BookReading, path: string | null): Promise<Shown[]> {
  if (path === null) return [];
  const custom = new Map<number, Shown>();
  const kinds: Shown[] = [];
  let inCellXfs = false;
  await parseXmlWhole(book, path, {
    open(name, a) {
      if (name === "numFmt")
        custom.set(Number(a.numFmtId), formatMoney(a.formatCode ?? "") ?? formatKind(a.formatCode ?? ""));
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const id = Number(a.numFmtId ?? 0);
        kinds.push(custom.get(id) ?? BUILT_IN[id] ?? "number");
      }
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return kinds;
}

export function numberText(value: number): string {
  return Number.isFinite(value) ? String(Number(value.toPrecision(15))) : "";
}

const DAY_MS = 86_400_000;
/** Day 0 of each system: 1899-12-30 (after Excel's phantom 1900-02-29) and 1904-01-01. */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** A date serial as "2024-05-01", "2024-05-01T13:45:00", or (a time format) "13:45:00". */
export function dateText(serial: number, kind: "date" | "time", date1904: boolean): string {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return numberText(serial);
  // 1900 serials before 1900-03-01 count the day Excel wrongly believes was 1900-02-29
  const days = !date1904 && serial < 61 ? serial + 1 : serial;
  const ms = (date1904 ? EPOCH_1904 : EPOCH_1900) + Math.round(days * 86_400) * 1000;
  const iso = new Date(ms).toISOString();
  if (kind === "time" && serial < 1) return iso.slice(11, 19);
  return ms % DAY_MS === 0 ? iso.slice(0, 10) : iso.slice(0, 19);
}

export type SheetContext = {
  strings: string[];
  styles: Shown[];
  date1904: boolean;
  maxMerges: number;
};

/** A merged range, 1-based and inclusive. */
export type Merge = { top: number; left: number; bottom: number; right: number };

const MAX_ROW = 1_048_576;
const MAX_COLUMN = 16_384; // XFD

const badCell = (what: string) => new Refused(notWorkbook(`The workbook has ${what}, which no spreadsheet has.`));

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
  /** Takes over from the parser when taking (xlsx.ts). */
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
    if (name === "row") this.openRow(a.r);
    else if (name === "c") {
      this.column = a.r === undefined ? this.column + 1 : cellRef(a.r)[0];
      this.type = a.t ?? "n";
      this.style = a.s === undefined ? 0 : Number(a.s);
      this.value = [];
      this.inline = [];
    } else if (name === "v") this.collecting = 1;
    else if (name === "t" && this.phonetic === 0 && this.type === "inlineStr") this.collecting = 2;
    else if (name === "rPh") this.phonetic++;
    else if (name === "mergeCell") this.addMerge(a.ref ?? "");
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
    const cells = Array.from(this.cells, (c) => c ?? "");
    while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
    this.rows.push({ row: this.row, cells });
  }

  private cellText(): string {
    const v = this.value.length === 1 ? this.value[0] : this.value.join("");
    const { type } = this;
    if (type === "s") {
      const text = this.context.strings[Number(v)];
      if (text === undefined) throw badCell(`a cell that names shared text #${cut(v, 20)} it does not hold`);
      return text;
    }
    if (type === "inlineStr") return this.inline.length > 0 ? this.inline.join("") : v;
    if (type === "b") return v === "" ? "" : v === "1" || v === "true" ? "TRUE" : "FALSE";
    if (type === "str" || type === "e") return v;
    if (type === "d") return v.replace(/T00:00:00(\.0+)?Z?$/, "").replace(/(\.\d+)?Z$/, "");
    return this.numberCell(v);
  }

  private numberCell(v: string): string {
    if (v.trim() === "") return this.inline.join("");
    const n = Number(v);
    if (Number.isNaN(n)) return v;
    const kind = this.context.styles[this.style] ?? "number";
    if (typeof kind === "object") return kind.after ? numberText(n) + kind.mark : kind.mark + numberText(n);
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
