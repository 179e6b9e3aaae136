/**
 * An .xlsx read as its writer stored it, within a budget: its sheets (whatever their parts are
 * called), date system and shared strings, every sheet looked at once to choose the staff list's,
 * then that sheet's rows streamed in batches. Nothing is written to disk.
 */
import { posix } from "node:path";
import { count, fail, ok, type Outcome } from "../../outcomes.js";
import { refuse, type GridRow } from "./grid-row.js";
import type { Pace } from "./pace.js";
import { NOT_A_WORKBOOK, type WorkbookZip } from "./xlsx/unzip.js";
import { cut, type ReadLimits } from "./xlsx/read-limits.js";
import { chooseSheet, MergeFill, scanSheet, type SheetScan } from "./xlsx/sheet-scan.js";
import { readStyles, SheetXml, type SheetContext } from "./xlsx/sheet-xml.js";
import { parseXmlPart, parseXmlWhole, type BookReading } from "./xlsx/xml-part.js";

export type SheetSummary = { name: string; rows: number; hidden: boolean };

/** A workbook's sheets looked at, and the one chosen (null when no sheet has rows), its rows to stream. */
export type WorkbookSheets = { sheets: SheetSummary[]; sheet: string | null; rows: AsyncIterable<GridRow[]> };

const WORKBOOK = "xl/workbook.xml";
const RELS = "xl/_rels/workbook.xml.rels";
const NO_SHEETS = "The file is a zip but not an Excel workbook: it has no sheets.";

/** A relation's target as a path in the zip: relative to `xl/`, or absolute from the root. */
const partPath = (target: string) => posix.resolve("/xl", target).slice(1);

/** The workbook's sheets, date system and parts. */
async function readWorkbookInfo(book: BookReading) {
  const { zip } = book;
  if (!zip.has(WORKBOOK) || !zip.has(RELS)) return fail("unreadable_file", NO_SHEETS, NOT_A_WORKBOOK);
  const declared = zip.check([WORKBOOK, RELS]);
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
  const present = (path: string | undefined) => (path !== undefined && zip.has(path) ? path : null);
  const sheets = listed.flatMap(({ name, id, hidden }) => {
    const path = present(targets.get(id));
    return path === null ? [] : [{ name, path, hidden }];
  });
  if (sheets.length === 0) return fail("unreadable_file", NO_SHEETS, NOT_A_WORKBOOK);
  return ok({
    sheets,
    date1904,
    sharedStrings: present(byType.get("sharedStrings")),
    styles: present(byType.get("styles")),
  });
}

const BATCH_ROWS = 256;

/** `"안내" (3 rows), "직원" (120 rows, hidden)`: the sheets, for a sentence. */
export const sheetList = (sheets: SheetSummary[]): string =>
  sheets
    .map(
      (s) =>
        `${JSON.stringify(cut(s.name, 100))} (${s.rows} ${s.rows === 1 ? "row" : "rows"}${s.hidden ? ", hidden" : ""})`,
    )
    .join(", ");

export type ReadSheetsOptions = { limits: ReadLimits; pace: Pace; now?: () => number };

/** Looks at the sheets and picks `wanted`, or the best fit for a staff list. Throws `Refused` past a bound. */
export async function readSheets(
  zip: WorkbookZip,
  wanted: string | undefined,
  { limits, pace, now = () => performance.now() }: ReadSheetsOptions,
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
  const xml = new SheetXml(context);
  const fill = new MergeFill(scan.merges);
  let batch: GridRow[] = [];
  const pieces = parseXmlPart(book, scan.path, xml);
  try {
    while (!(await pieces.next()).done) {
      for (const r of xml.rows) {
        fill.fill(r);
        batch.push(r);
      }
      xml.rows = [];
      if (batch.length >= BATCH_ROWS) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    // a reading stopped early (a limit passed) stops the unpacking too
    await pieces.return(undefined);
  }
}

const SMALLER =
  "Keep only the sheet with the staff list (and only its columns) in a new workbook and send that, or send it as CSV.";

const tooMany = (found: string, limit: number, what: string) =>
  refuse(
    "input_too_large",
    `The workbook holds ${found} ${what} of shared text; a read takes at most ${count(limit)} ${what}.`,
    SMALLER,
  );

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
  const handlers = {
    open(name: string, a: Record<string, string>) {
      if (name === "si") current = [];
      else if (name === "t") inText = phonetic === 0 && current !== null;
      else if (name === "rPh") phonetic++;
      else if (name === "sst" && Number(a.uniqueCount) > limits.maxSharedStrings)
        throw tooMany(count(Number(a.uniqueCount)), limits.maxSharedStrings, "strings");
    },
    close(name: string) {
      if (name === "t") inText = false;
      else if (name === "rPh") phonetic--;
      else if (name === "si" && current !== null) {
        if (strings.length >= limits.maxSharedStrings)
          throw tooMany(`more than ${count(limits.maxSharedStrings)}`, limits.maxSharedStrings, "strings");
        strings.push(current.length === 1 ? current[0] : current.join(""));
        current = null;
      }
    },
    text(text: string) {
      if (!inText || current === null) return;
      chars += text.length;
      if (chars > limits.maxSharedChars)
        throw tooMany(`more than ${count(limits.maxSharedChars)}`, limits.maxSharedChars, "characters");
      current.push(text);
    },
  };
  await parseXmlWhole(book, path, handlers);
  return strings;
}
