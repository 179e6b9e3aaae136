/**
 * A first look at every sheet, to choose the staff list's: its first rows parsed for a header, the
 * rest searched for rows and merged ranges (TagScan). The sheet whose header maps the required
 * columns wins, a visible one before a hidden one, then the most columns, then the most rows.
 */
import { isBlank, type GridRow } from "../grid-row.js";
import { HEADER_CANDIDATES, mappedCount, matchHeaders } from "../headers.js";
import { SheetXml, type Merge, type SheetContext } from "./sheet-xml.js";
import { parseXmlPart, type BookReading } from "./xml-part.js";

export type SheetEntry = { name: string; path: string; hidden: boolean };

export type SheetScan = SheetEntry & { rows: number; merges: Merge[]; fits: boolean; columns: number };

/** Reads sheet `entry` once through. */
export async function scanSheet(book: BookReading, entry: SheetEntry, context: SheetContext): Promise<SheetScan> {
  const xml = new SheetXml(context);
  const scan = (xml.scan = new TagScan());
  const held: GridRow[] = [];
  const pieces = parseXmlPart(book, entry.path, xml);
  while (!(await pieces.next()).done) {
    for (const r of xml.rows) if (held.length < HEADER_CANDIDATES && "cells" in r && !isBlank(r.cells)) held.push(r);
    xml.rows = [];
    if (held.length >= HEADER_CANDIDATES) scan.taking = true;
    await book.pace();
  }
  const rows = xml.opened + scan.rows;
  for (const ref of new Set(scan.mergeRefs)) xml.addMerge(ref);
  const fill = new MergeFill(xml.merges);
  let best = { fits: false, columns: 0 };
  for (const r of held) {
    fill.fill(r);
    if (!("cells" in r)) continue;
    const match = matchHeaders(r.cells.map((c) => c.trim()));
    const fits = match.missing.length === 0;
    const columns = mappedCount(match);
    if ((fits && !best.fits) || (fits === best.fits && columns > best.columns)) best = { fits, columns };
  }
  return { ...entry, rows, merges: xml.merges, ...best };
}

/** Above 0 when `a` fits a staff list better than `b`. */
const compare = (a: SheetScan, b: SheetScan) =>
  Number(a.fits) - Number(b.fits) || Number(b.hidden) - Number(a.hidden) || a.columns - b.columns || a.rows - b.rows;

/** The sheet to read; the first with rows when none fits at all. */
export function chooseSheet(scans: SheetScan[]): SheetScan | undefined {
  let best: SheetScan | undefined;
  for (const scan of scans) if (scan.rows > 0 && (best === undefined || compare(scan, best) > 0)) best = scan;
  return best;
}

const ROW = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;
const MERGE = /<(?:[A-Za-z_][\w.-]*:)?mergeCell\s[^>]*?\bref="([^"]*)"/g;
/** A tag longer than this is cut off when looking for the next (only a huge attribute could be). */
const LONGEST_CARRY = 64 * 1024;

/**
 * The rest of a sheet after its first rows, searched for `<row` and `<mergeCell` tags rather than
 * parsed (three times faster). A tag opens with "<", which text and attribute values cannot hold.
 */
export class TagScan {
  /** Rows found by the search (the parser counts those before). */
  rows = 0;
  readonly mergeRefs: string[] = [];
  taking = false;
  /** Text after the last "<" of the previous piece: a tag that may go on in the next one. */
  private carry = "";

  take(text: string): void {
    if (!this.taking) {
      const last = text.lastIndexOf("<");
      if (last !== -1) this.carry = text.slice(last);
      else if (this.carry !== "") this.carry += text;
      // a tag closed in the piece was the parser's: not counted again
      if (this.carry.includes(">")) this.carry = "";
      return;
    }
    const all = this.carry + text;
    const last = all.lastIndexOf("<");
    const done = last === -1 ? all : all.slice(0, last);
    this.carry = last === -1 ? "" : all.slice(last);
    if (this.carry.length > LONGEST_CARRY) this.carry = "";
    this.search(done);
  }

  end(): void {
    if (this.taking) this.search(this.carry);
    this.carry = "";
  }

  private search(text: string): void {
    ROW.lastIndex = 0;
    while (ROW.exec(text) !== null) this.rows++;
    if (!text.includes("mergeCell")) return;
    MERGE.lastIndex = 0;
    for (let m = MERGE.exec(text); m !== null; m = MERGE.exec(text)) this.mergeRefs.push(m[1]);
  }
}

/** Columns past this are not filled (a staff list has tens; a range over the whole width would fill 16,384). */
const FILL_COLUMNS = 256;

/**
 * Fills rows, in ascending order, with merged cells as a person sees them: a range's first cell's text
 * in every cell it covers. A sheet lists its merges after its rows, so they come from the first look.
 */
export class MergeFill {
  private readonly pending: Merge[];
  private active: { merge: Merge; text: string }[] = [];

  constructor(merges: readonly Merge[]) {
    this.pending = [...merges].sort((a, b) => b.top - a.top); // popped from the end, topmost first
  }

  fill(r: GridRow): void {
    if (this.pending.length === 0 && this.active.length === 0) return;
    this.active = this.active.filter((a) => a.merge.bottom >= r.row);
    while (this.pending.length > 0 && this.pending[this.pending.length - 1].top <= r.row) {
      const merge = this.pending.pop()!;
      // a range whose first row was never written (blank) fills with nothing
      const text = merge.top === r.row && "cells" in r ? (r.cells[merge.left - 1] ?? "") : "";
      if (text !== "" && merge.bottom >= r.row) this.active.push({ merge, text });
    }
    if (!("cells" in r)) return;
    for (const { merge, text } of this.active) {
      const right = Math.min(merge.right, FILL_COLUMNS);
      while (r.cells.length < right) r.cells.push("");
      for (let c = merge.left; c <= right; c++) r.cells[c - 1] = text;
    }
  }
}
