/**
 * A first look at every sheet of a workbook, to choose the one that holds the staff list: its first
 * rows parsed (for its header), the rest searched for rows and merged ranges (TagScan), and the
 * sheet scored by how well its header fits a staff list. The sheet whose header maps the required columns and
 * then the most columns wins, then the one with the most rows; a visible sheet before a hidden one
 * that fits as well, and a hidden sheet only when no visible one has the required columns.
 */
import { isBlank, type GridRow } from "../grid-row.js";
import { matchHeaders } from "../headers.js";
import { MergeFill } from "./merges.js";
import { SheetXml, type Merge, type SheetContext } from "./sheet-xml.js";
import type { SheetEntry } from "./workbook-parts.js";
import { parseXmlPart, type Clock } from "./xml-part.js";
import type { WorkbookZip } from "./unzip.js";

/** Rows with text looked at for a header, as the table's header search does. */
const HEADER_CANDIDATES = 10;

/** A sheet after the first look: how many rows it stores, its merges, and how its best header fits. */
export type SheetScan = SheetEntry & { rows: number; merges: Merge[]; fits: boolean; columns: number };

/** Reads sheet `entry` once through; pieces are paced, and every bound of `parseXmlPart` holds. */
export async function scanSheet(
  zip: WorkbookZip,
  entry: SheetEntry,
  context: SheetContext,
  clock: Clock,
  pace: () => Promise<void>,
): Promise<SheetScan> {
  const xml = new SheetXml(context);
  const scan = (xml.scan = new TagScan());
  const held: GridRow[] = [];
  const pieces = parseXmlPart(zip, entry.path, xml, clock);
  while (!(await pieces.next()).done) {
    for (const r of xml.rows) if (held.length < HEADER_CANDIDATES && "cells" in r && !isBlank(r.cells)) held.push(r);
    xml.rows = [];
    if (held.length >= HEADER_CANDIDATES) scan.taking = true;
    await pace();
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
    const columns = Object.values(match.columns).filter((i) => i !== -1).length;
    if ((fits && !best.fits) || (fits === best.fits && columns > best.columns)) best = { fits, columns };
  }
  return { ...entry, rows, merges: xml.merges, ...best };
}

/** The sheet to read: the best fit for a staff list (see above); the first with rows when none fits at all. */
export function chooseSheet(scans: SheetScan[]): SheetScan | undefined {
  const key = (s: SheetScan) => [s.fits ? 1 : 0, s.hidden ? 0 : 1, s.columns, s.rows];
  let best: SheetScan | undefined;
  for (const scan of scans) {
    if (scan.rows === 0) continue;
    if (best === undefined || greater(key(scan), key(best))) best = scan;
  }
  return best;
}

function greater(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

const ROW = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;
const MERGE = /<(?:[A-Za-z_][\w.-]*:)?mergeCell\s[^>]*?\bref="([^"]*)"/g;
/** A tag longer than this is cut off when looking for the next (only a huge attribute could be). */
const LONGEST_CARRY = 64 * 1024;

/**
 * The rest of a sheet looked at without parsing it: once its first rows are read (for its header),
 * choosing a sheet needs only how many rows it holds and its merged ranges, so the rest of its XML
 * is searched for the `<row` and `<mergeCell` tags rather than parsed (three times faster). A tag
 * always opens with "<", which text and attribute values cannot hold, so a tag is never mistaken.
 */
export class TagScan {
  /** Rows found by the search (the rows parsed before are counted by the parser). */
  rows = 0;
  readonly mergeRefs: string[] = [];
  /** True once the search has taken over from the parser. */
  taking = false;
  /** Text after the last "<" of the previous piece: a tag that may go on in the next one. */
  private carry = "";

  /** Sees a piece: searched when taking over, else only its unfinished last tag kept. */
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

  /** The last piece's unfinished tag, searched at the end. */
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
