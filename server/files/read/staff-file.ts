/**
 * A staff file read into what a job takes: its format told by its bytes (a zip is an .xlsx, anything
 * else delimited text), its rows made into a preview and a canonical CSV (table.ts), in slices that
 * let the event loop turn. A file that cannot start yet gets a preview whose problems say why.
 */
import { FILE_LIMITS, type Reading } from "../../../shared/files.js";
import { sizePair, type InputLimits } from "../../limits.js";
import { fail, type Outcome } from "../../outcomes.js";
import { decodeText } from "./decode.js";
import { createPace, type Pace } from "./pace.js";
import { detectSeparator } from "./separator.js";
import { buildTable, type StaffTable } from "./table.js";
import { readCsvBatches } from "./csv/reader.js";
import { breachRefusal, findHeader, scanRecords } from "./csv/inspect.js";
import { Refused } from "./grid-row.js";
import { openWorkbook } from "./xlsx/unzip.js";
import { readSheets } from "./xlsx.js";
import { READ_LIMITS } from "./xlsx/read-limits.js";

/** Characters csv-parse reads at a time: a few milliseconds. */
const SLICE_CHARS = 16 * 1024;

const SAVE_AS = "Save it as .xlsx or as CSV (from Excel: File › Save As) and send it again.";
const unreadable = (message: string) => fail("unreadable_file", message, SAVE_AS);

/** Reads a staff file; `reading` overrides what is detected (encoding, sheet, columns). */
export async function readStaffFile(
  bytes: Uint8Array,
  fileName: string,
  reading: Reading,
  limits: InputLimits,
): Promise<Outcome<StaffTable>> {
  if (bytes.length === 0) return fail("invalid_arguments", `The file ${JSON.stringify(fileName)} is empty.`, SAVE_AS);
  if (bytes.length > FILE_LIMITS.maxFileBytes) {
    const [found, limit] = sizePair(bytes.length, FILE_LIMITS.maxFileBytes);
    return fail(
      "input_too_large",
      `The file is ${found}; the limit is ${limit}.`,
      "Keep only the staff list's sheet and columns (name, department, interests, budget), or split the list into smaller files.",
    );
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0]))
    return unreadable("The file is an old-style .xls workbook, or one protected with a password.");
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return unreadable("The file is a PDF, not a staff list.");
  const file: FileReading = { bytes, fileName, reading, limits, pace: createPace() };
  try {
    return await (isZip(bytes) ? readWorkbook(file) : readText(file));
  } catch (error) {
    if (error instanceof Refused) return error.outcome;
    throw error;
  }
}

type FileReading = { bytes: Uint8Array; fileName: string; reading: Reading; limits: InputLimits; pace: Pace };

async function readWorkbook({ bytes, fileName, reading, limits, pace }: FileReading): Promise<Outcome<StaffTable>> {
  const zip = await openWorkbook(bytes, READ_LIMITS);
  if (!zip.ok) return zip;
  try {
    const found = await readSheets(zip.value, reading.sheet, { limits: READ_LIMITS, pace });
    if (!found.ok) return found;
    const { sheets, sheet, rows } = found.value;
    return await buildTable(rows, { fileName, format: "xlsx", sheets, sheet }, { reading, limits, pace });
  } finally {
    zip.value.close();
  }
}

async function readText({ bytes, fileName, reading, limits, pace }: FileReading): Promise<Outcome<StaffTable>> {
  const { text, encoding, certain } = await decodeText(bytes, reading.encoding, pace);
  if (looksBinary(text)) return unreadable("The file is neither a spreadsheet nor a CSV or text file.");
  const separator = detectSeparator(text);
  // a text of one huge line or endless cells is refused before csv-parse splits it; the first line
  // with text stands for the header, so rows above the real one are allowed for
  const header = findHeader(text);
  const scanLimits = { ...limits, maxRows: limits.maxRows + 1_000 };
  const scan = header && (await scanRecords(text, header, separator, -1, scanLimits, pace));
  if (scan?.breach) return breachRefusal(scan.breach, "The file", limits);
  const rows = readCsvBatches(text, { separator, from: 0, sliceChars: SLICE_CHARS });
  const source = { fileName, format: "csv", encoding, encodingCertain: certain, separator } as const;
  return buildTable(rows, source, { reading, limits, pace });
}

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);
/** An .xlsx is a zip: its first bytes say so, whatever the name. */
export const isZip = (bytes: Uint8Array) => startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]);

/** Control characters (other than tab and line ends) in the first 64 K characters: no text has them. */
function looksBinary(text: string): boolean {
  const end = Math.min(text.length, 64 * 1024);
  let controls = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return true;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13) controls++;
  }
  return controls * 100 > end;
}
