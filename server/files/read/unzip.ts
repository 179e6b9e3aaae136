/**
 * Opening an .xlsx (a zip) without trusting it. Before anything is unpacked, the central directory
 * is read with yauzl and the workbook refused when the parts a reader needs would unpack past a
 * bound, or one of them is packed at a ratio no spreadsheet reaches (a zip bomb). Then those parts
 * alone are unpacked, each stream counted as it comes and stopped past its declared size (yauzl
 * checks that) or past the bound (we do), so a directory that lies still cannot fill the memory.
 */
import type { Readable } from "node:stream";
import yauzl, { type Entry } from "yauzl";
import { fail, ok, type Outcome } from "../../jobs/outcomes.js";
import { size } from "../../jobs/limits.js";

export const ZIP_LIMITS = {
  /** The parts read (workbook, styles, shared strings, sheets) unpack to at most this many bytes. */
  maxUnpackedBytes: 100 * 1024 * 1024,
  /** No part that unpacks past `ratioFromBytes` may be packed tighter than this (XML reaches 20–50). */
  maxRatio: 200,
  ratioFromBytes: 1024 * 1024,
  /** Entries in the directory: a workbook has tens. */
  maxEntries: 10_000,
};
export type ZipLimits = typeof ZIP_LIMITS;

/** A part of the workbook, unpacked. */
export type ZipPart = { name: string; data: Buffer };

const WORKBOOK_PARTS = ["xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/styles.xml", "xl/sharedStrings.xml"];
const SHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

const NOT_A_WORKBOOK =
  "Save it from Excel (or Google Sheets, Numbers, LibreOffice) as .xlsx or as CSV and send it again.";

/**
 * The parts of the workbook in `bytes` a reader needs, unpacked, in the order a streaming reader
 * wants them: the workbook and its relations, styles, shared strings, then the sheets by number.
 */
export async function unpackWorkbook(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): Promise<Outcome<ZipPart[]>> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      validateEntrySizes: true,
    });
  } catch (error) {
    return fail(
      "invalid_arguments",
      `The file is not a readable .xlsx workbook (${(error as Error).message}).`,
      NOT_A_WORKBOOK,
    );
  }
  try {
    if (zip.entryCount > limits.maxEntries)
      return fail(
        "invalid_arguments",
        `The workbook holds ${zip.entryCount} parts; a spreadsheet has tens.`,
        NOT_A_WORKBOOK,
      );
    const wanted = await neededEntries(zip);
    if (!wanted.ok) return wanted;
    const checked = checkDeclared(wanted.value, limits);
    if (!checked.ok) return checked;
    const parts: ZipPart[] = [];
    let total = 0;
    for (const entry of wanted.value) {
      const data = await unpack(zip, entry, total, limits);
      if (!data.ok) return data;
      total += data.value.length;
      parts.push({ name: entry.fileName, data: data.value });
    }
    return ok(parts);
  } catch (error) {
    return fail(
      "invalid_arguments",
      `The workbook could not be unpacked (${(error as Error).message}).`,
      NOT_A_WORKBOOK,
    );
  } finally {
    zip.close();
  }
}

async function neededEntries(zip: yauzl.ZipFile): Promise<Outcome<Entry[]>> {
  const parts: Entry[] = [];
  const sheets: [number, Entry][] = [];
  for await (const entry of zip.eachEntry()) {
    const sheet = SHEET.exec(entry.fileName);
    if (sheet) sheets.push([Number(sheet[1]), entry]);
    else if (WORKBOOK_PARTS.includes(entry.fileName)) parts.push(entry);
  }
  if (sheets.length === 0 || !parts.some((p) => p.fileName === "xl/workbook.xml"))
    return fail("invalid_arguments", "The file is a zip but not an Excel workbook: it has no sheets.", NOT_A_WORKBOOK);
  parts.sort((a, b) => WORKBOOK_PARTS.indexOf(a.fileName) - WORKBOOK_PARTS.indexOf(b.fileName));
  sheets.sort((a, b) => a[0] - b[0]);
  return ok([...parts, ...sheets.map(([, entry]) => entry)]);
}

/** The directory's word, checked before a byte is unpacked. */
function checkDeclared(entries: Entry[], limits: ZipLimits): Outcome<null> {
  let total = 0;
  for (const entry of entries) {
    if (entry.isEncrypted())
      return fail(
        "invalid_arguments",
        "The workbook is protected with a password.",
        "Save a copy without a password and send that.",
      );
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize >= limits.ratioFromBytes && ratio > limits.maxRatio) {
      return fail(
        "input_too_large",
        `The workbook's part ${entry.fileName} would unpack ${Math.round(ratio)} times larger than it is packed (to ${size(entry.uncompressedSize)}); no spreadsheet packs that tight, so it was not opened.`,
        NOT_A_WORKBOOK,
      );
    }
  }
  if (total > limits.maxUnpackedBytes) return tooLarge(total, limits);
  return ok(null);
}

const tooLarge = <T>(bytes: number, limits: ZipLimits): Outcome<T> =>
  fail(
    "input_too_large",
    `The workbook would unpack to ${size(bytes)}; at most ${size(limits.maxUnpackedBytes)} is read.`,
    "Keep only the sheet with the staff list (and only its columns) and send it again, or send it as CSV.",
  );

/** One part, unpacked; stopped as soon as the parts pass the bound, or it passes what the directory said. */
async function unpack(zip: yauzl.ZipFile, entry: Entry, used: number, limits: ZipLimits): Promise<Outcome<Buffer>> {
  const stream: Readable = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let length = 0;
  const lying = (detail: string) =>
    fail<Buffer>(
      "input_too_large",
      `The workbook's part ${entry.fileName} unpacks larger than the workbook says (${detail}), so it was not read further.`,
      NOT_A_WORKBOOK,
    );
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (used + length > limits.maxUnpackedBytes) {
        stream.destroy();
        return lying(`past ${size(limits.maxUnpackedBytes)}`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    stream.destroy();
    const message = (error as Error).message;
    // yauzl stops a part that unpacks past the size its directory entry states
    if (/too many bytes/i.test(message)) return lying(`more than the ${size(entry.uncompressedSize)} it declares`);
    return fail("invalid_arguments", `The workbook could not be unpacked (${message}).`, NOT_A_WORKBOOK);
  }
  return ok(Buffer.concat(chunks, length));
}
