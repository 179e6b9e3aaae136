/**
 * An .xlsx read as its writer stored it, within a budget: its sheets (whatever their parts are
 * called), date system and shared strings, every sheet looked at once to choose the staff list's
 * (its first rows parsed for a header, the rest searched for rows and merged ranges), then that
 * sheet's rows streamed in batches, merged cells filled. Nothing is written to disk.
 */
import { posix } from "node:path";
import type { StaffPreview } from "../../../shared/files.js";
import { count, fail, ok, type Outcome } from "../../outcomes.js";
import { isBlank, type CellRow, type GridRow } from "./grid-row.js";
import { HEADER_CANDIDATES, mappedCount, matchHeaders } from "./headers.js";
import type { Pace } from "./pace.js";
import { notWorkbook, type WorkbookZip } from "./xlsx/unzip.js";
import { cut, tooLarge, type ReadLimits } from "./xlsx/read-limits.js";
import { readStyles, SheetXml, type Merge, type SheetContext } from "./xlsx/sheet-xml.js";
import { parseXmlPart, parseXmlWhole, type BookReading } from "./xlsx/xml-part.js";

export type SheetSummary = StaffPreview["sheets"][number];

/** A workbook's sheets looked at, and the one chosen (null when no sheet has rows), its rows to stream. */
export type WorkbookSheets = { sheets: SheetSummary[]; sheet: string | null; rows: AsyncIterable<GridRow[]> };

const WORKBOOK = "xl/workbook.xml";
const RELS = "xl/_rels/workbook.xml.rels";
const NO_SHEETS = "The file is a zip but not an Excel workbook: it has no sheets.";

/** A relation's target as a path in the zip: relative to `xl/`, or absolute from the root. */
const partPath = (target: string) => posix.resolve("/xl", target).slice(1);

/** The workbook's sheets, date system and parts. */
async function readWorkbookInfo(book: BookReading) {
  if (!book.zip.has(WORKBOOK) || !book.zip.has(RELS)) return notWorkbook(NO_SHEETS);
  const declared = book.zip.check([WORKBOOK, RELS]);
  if (!declared.ok) return declared;
  const listed: { name: string; id: string; hidden: boolean }[] = [];
  let date1904 = false; // old Mac Excel
  await parseXmlWhole(book, WORKBOOK, {
    open(name, a) {
      if (name === "workbookPr") date1904 = a.date1904 === "1" || a.date1904 === "true";
      if (name === "sheet")
        listed.push({
          // Excel's names have at most 31 characters: a longer one is cut to what a refusal may echo
          name: cut(a.name ?? ""),
          // the relation's id, whatever prefix the writer gave it (`r:id`, `ns1:id`)
          id: Object.entries(a).find(([key]) => /^[^:]*:id$/.test(key))?.[1] ?? "",
          hidden: (a.state ?? "visible") !== "visible",
        });
    },
  });
  const targets = new Map<string, string>();
  const byType = new Map<string, string>();
  await parseXmlWhole(book, RELS, {
    open(name, a) {
      if (name !== "Relationship" || a.TargetMode === "External" || !a.Id || !a.Target) return;
      targets.set(a.Id, partPath(a.Target));
      byType.set(a.Type?.split("/").pop() ?? "", partPath(a.Target));
    },
  });
  const present = (path: string | undefined) => (path !== undefined && book.zip.has(path) ? path : null);
  const sheets = listed.flatMap(({ name, id, hidden }) => {
    const path = present(targets.get(id));
    return path === null ? [] : [{ name, path, hidden }];
  });
  if (sheets.length === 0) return notWorkbook(NO_SHEETS);
  return ok({
    sheets,
    date1904,
    sharedStrings: present(byType.get("sharedStrings")),
    styles: present(byType.get("styles")),
  });
}

const BATCH_ROWS = 256;

const sheetText = ({ name, rows, hidden }: SheetSummary) =>
  `${JSON.stringify(cut(name, 100))} (${rows} ${rows === 1 ? "row" : "rows"}${hidden ? ", hidden" : ""})`;
/** `"안내" (3 rows), "직원" (120 rows, hidden)`: the sheets, for a sentence. */
export const sheetList = (sheets: SheetSummary[]): string => sheets.map(sheetText).join(", ");

/** Looks at the sheets and picks `wanted`, or the best fit for a staff list. Throws `Refused` past a bound. */
export async function readSheets(
  zip: WorkbookZip,
  wanted: string | undefined,
  { limits, pace, now = () => performance.now() }: { limits: ReadLimits; pace: Pace; now?: () => number },
): Promise<Outcome<WorkbookSheets>> {
  const clock = { now, deadline: now() + limits.deadlineMs, deadlineMs: limits.deadlineMs };
  const book: BookReading = { zip, clock, pace };
  const info = await readWorkbookInfo(book);
  if (!info.ok) return info;
  const { sheets, date1904, sharedStrings, styles } = info.value;
  const parts = [sharedStrings, styles, ...sheets.map((s) => s.path)].filter((p): p is string => p !== null);
  const declared = zip.check(parts);
  if (!declared.ok) return declared;
  const context: SheetContext = {
    styles: await readStyles(book, styles),
    strings: await readSharedStrings(book, sharedStrings, limits),
    date1904,
    maxMerges: limits.maxMerges,
  };
  const scans: SheetScan[] = [];
  for (const entry of sheets) scans.push(await scanSheet(book, entry, context));
  const summaries = scans.map(({ name, rows, hidden }) => ({ name, rows, hidden }));
  const chosen = wanted === undefined ? chooseSheet(scans) : scans.find((s) => s.name === wanted);
  if (wanted !== undefined && chosen === undefined) {
    return fail(
      "invalid_arguments",
      `The workbook has no sheet ${JSON.stringify(cut(wanted))}; its sheets are ${sheetList(summaries)}.`,
      "Choose one of them.",
    );
  }
  return ok({ sheets: summaries, sheet: chosen?.name ?? null, rows: sheetRows(book, chosen, context) });
}

/** The rows of the sheet chosen (none when no sheet has rows), merged cells filled. */
async function* sheetRows(book: BookReading, scan: SheetScan | undefined, context: SheetContext) {
  if (scan === undefined) return;
  const fill = new MergeFill(scan.merges);
  let batch: GridRow[] = [];
  // a reading stopped early (a limit passed) leaves the loop, which stops the unpacking too
  for await (const xml of parseXmlPart(book, scan.path, new SheetXml(context))) {
    for (const r of xml.rows) fill.fill(r);
    batch.push(...xml.rows);
    xml.rows = [];
    if (batch.length >= BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

type SheetEntry = { name: string; path: string; hidden: boolean };

type SheetScan = SheetEntry & { rows: number; merges: Merge[]; fits: boolean; columns: number };

/** Reads sheet `entry` once through. */
async function scanSheet(book: BookReading, entry: SheetEntry, context: SheetContext): Promise<SheetScan> {
  const xml = new SheetXml(context);
  const scan = (xml.scan = new TagScan());
  const held: CellRow[] = [];
  for await (const { rows } of parseXmlPart(book, entry.path, xml)) {
    for (const r of rows) if (held.length < HEADER_CANDIDATES && "cells" in r && !isBlank(r.cells)) held.push(r);
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

/**
 * The sheet to read: the one whose header maps the required columns, a visible one before a hidden
 * one, then the most columns, then the most rows; the first with rows when none fits at all.
 */
function chooseSheet(scans: SheetScan[]): SheetScan | undefined {
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
    this.rows += text.match(ROW)?.length ?? 0;
    if (!text.includes("mergeCell")) return;
    for (const m of text.matchAll(MERGE)) this.mergeRefs.push(m[1]);
  }
}

/** Columns past this are not filled (a staff list has tens; a range over the whole width would fill 16,384). */
const FILL_COLUMNS = 256;

/**
 * Fills rows, in ascending order, with merged cells as a person sees them: a range's first cell's text
 * in every cell it covers. A sheet lists its merges after its rows, so they come from the first look.
 */
class MergeFill {
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

const tooMany = (limit: number, what: string, found = `more than ${count(limit)}`) =>
  tooLarge(`The workbook holds ${found} ${what} of shared text; a read takes at most ${count(limit)} ${what}.`);

/**
 * A workbook's shared strings, bounded by count and characters (past them, `Refused`): rich text
 * is all its runs joined, phonetic guides (`<rPh>`) left out.
 */
async function readSharedStrings(book: BookReading, path: string | null, limits: ReadLimits): Promise<string[]> {
  if (path === null) return [];
  const strings: string[] = [];
  let chars = 0;
  let current: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  await parseXmlWhole(book, path, {
    open(name, a) {
      if (name === "si") current = [];
      else if (name === "t") inText = phonetic === 0 && current !== null;
      else if (name === "rPh") phonetic++;
      else if (name === "sst" && Number(a.uniqueCount) > limits.maxSharedStrings)
        throw tooMany(limits.maxSharedStrings, "strings", count(Number(a.uniqueCount)));
    },
    close(name) {
      if (name === "t") inText = false;
      else if (name === "rPh") phonetic--;
      else if (name === "si" && current !== null) {
        if (strings.length >= limits.maxSharedStrings) throw tooMany(limits.maxSharedStrings, "strings");
        strings.push(current.length === 1 ? current[0] : current.join(""));
        current = null;
      }
    },
    text(text) {
      if (!inText || current === null) return;
      chars += text.length;
      if (chars > limits.maxSharedChars) throw tooMany(limits.maxSharedChars, "characters");
      current.push(text);
    },
  });
  return strings;
}
