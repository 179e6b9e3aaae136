/**
 * An .xlsx read as its writer stored it, within a budget: the zip opened and bounded (xlsx/unzip.ts),
 * the workbook's sheets and styles read (xlsx/*) and its shared strings here, every sheet looked at
 * once to choose the staff list's (or the one named), then that sheet's rows streamed in batches
 * from the unpacking zip through a fatal UTF-8 decoder and saxes. Nothing is written to disk; a
 * read stopped early (a limit, the deadline, a broken part) leaves nothing behind.
 */
import { count, fail, ok, type Outcome } from "../../outcomes.js";
import type { GridRow } from "./grid-row.js";
import type { Pace } from "./pace.js";
import { Refused } from "./refused.js";
import type { WorkbookZip } from "./xlsx/unzip.js";
import { readStyles } from "./xlsx/number-format.js";
import { cut, type ReadLimits } from "./xlsx/read-limits.js";
import { chooseSheet, MergeFill, scanSheet, type SheetScan } from "./xlsx/sheet-scan.js";
import { SheetXml, type SheetContext } from "./xlsx/sheet-xml.js";
import { readWorkbookInfo } from "./xlsx/workbook-parts.js";
import { parseXmlPart, parseXmlWhole, type Clock } from "./xlsx/xml-part.js";

/** A sheet as the preview lists it. */
export type SheetSummary = { name: string; rows: number; hidden: boolean };

/** A workbook's sheets looked at, and the one chosen (null when no sheet has rows), its rows to stream. */
export type WorkbookSheets = { sheets: SheetSummary[]; sheet: string | null; rows: AsyncIterable<GridRow[]> };

/** Rows per batch handed on. */
const BATCH_ROWS = 256;

/** `"안내" (3 rows), "직원" (120 rows, hidden)`: the sheets, for a sentence. */
export const sheetList = (sheets: SheetSummary[]): string =>
  sheets
    .map(
      (s) =>
        `${JSON.stringify(cut(s.name, 100))} (${s.rows} ${s.rows === 1 ? "row" : "rows"}${s.hidden ? ", hidden" : ""})`,
    )
    .join(", ");

/**
 * Looks at the sheets of `zip` and picks the one to read: `wanted` by name, or the best fit for a
 * staff list. Throws `Refused` past a bound or on a broken part; fails when `wanted` is no sheet.
 */
export async function readSheets(
  zip: WorkbookZip,
  wanted: string | undefined,
  { limits, pace, clock }: { limits: ReadLimits; pace: Pace; clock: Clock },
): Promise<Outcome<WorkbookSheets>> {
  const info = await readWorkbookInfo(zip, clock, pace);
  if (!info.ok) return info;
  const { sheets, date1904, sharedStrings, styles } = info.value;
  const parts = [sharedStrings, styles, ...sheets.map((s) => s.path)].filter((p): p is string => p !== null);
  const declared = zip.check(parts);
  if (!declared.ok) return declared;
  const context: SheetContext = {
    styles: await readStyles(zip, styles, clock, pace),
    strings: await readSharedStrings(zip, sharedStrings, limits, clock, pace),
    date1904,
    maxMerges: limits.maxMerges,
  };
  const scans: SheetScan[] = [];
  for (const entry of sheets) scans.push(await scanSheet(zip, entry, context, clock, pace));
  const summaries = scans.map(({ name, rows, hidden }) => ({ name, rows, hidden }));
  const chosen = wanted === undefined ? chooseSheet(scans) : scans.find((s) => s.name === wanted);
  if (wanted !== undefined && chosen === undefined) {
    return fail(
      "invalid_arguments",
      `The workbook has no sheet ${JSON.stringify(cut(wanted))}; its sheets are ${sheetList(summaries)}.`,
      "Choose one of them.",
    );
  }
  const rows = chosen === undefined ? none() : sheetRows(zip, chosen, context, clock);
  return ok({ sheets: summaries, sheet: chosen?.name ?? null, rows });
}

async function* none(): AsyncGenerator<GridRow[]> {}

/** The rows of sheet `scan`, merged ranges filled, in batches. */
async function* sheetRows(
  zip: WorkbookZip,
  scan: SheetScan,
  context: SheetContext,
  clock: Clock,
): AsyncGenerator<GridRow[]> {
  const xml = new SheetXml(context);
  const fill = new MergeFill(scan.merges);
  let batch: GridRow[] = [];
  const pieces = parseXmlPart(zip, scan.path, xml, clock);
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
  new Refused(
    fail(
      "input_too_large",
      `The workbook holds ${found} ${what} of shared text; a read takes at most ${count(limit)} ${what}.`,
      SMALLER,
    ),
  );

/**
 * A workbook's shared strings (the text most writers keep once for the whole workbook and refer to
 * by index from the cells) in part `path`, streamed into a list bounded by count and characters
 * (past them, `Refused`): rich text is all its runs joined, phonetic guides (`<rPh>`) left out.
 */
async function readSharedStrings(
  zip: WorkbookZip,
  path: string | null,
  limits: ReadLimits,
  clock: Clock,
  pace: () => Promise<void>,
): Promise<string[]> {
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
  await parseXmlWhole(zip, path, handlers, clock, pace);
  return strings;
}
