/**
 * A first look at every sheet of a workbook, to choose the one that holds the staff list: its first
 * rows parsed (for its header), the rest searched for rows and merged ranges (tag-scan.ts), and the
 * sheet scored by how well its header fits a staff list. The sheet whose header maps the required columns and
 * then the most columns wins, then the one with the most rows; a visible sheet before a hidden one
 * that fits as well, and a hidden sheet only when no visible one has the required columns.
 */
import { isBlank, type GridRow } from "../grid-row.js";
import { matchHeaders } from "../headers.js";
import { MergeFill } from "./merges.js";
import { SheetXml, type Merge, type SheetContext } from "./sheet-xml.js";
import { TagScan } from "./tag-scan.js";
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
