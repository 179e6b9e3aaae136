/**
 * Opening an .xlsx (a zip) without trusting it: parts past a bound, or packed at a ratio no
 * spreadsheet reaches (a zip bomb), are refused before a byte is unpacked; parts stream and stop past
 * their declared size (yauzl) or the bound (here), so a directory that lies cannot fill the memory.
 */
import yauzl, { type Entry } from "yauzl";
import { fail, ok, type Outcome } from "../../../outcomes.js";
import { size, sizePair } from "../../../limits.js";
import { refuse, Refused } from "../grid-row.js";
import { cut, READ_LIMITS, SEND_LESS, type ReadLimits } from "./read-limits.js";

export type WorkbookZip = {
  has(name: string): boolean;
  /** The directory's word on `names`, checked before they are unpacked. */
  check(names: string[]): Outcome<null>;
  /** The unpacked bytes of part `name`, in pieces; throws `Refused` past a bound or on a broken part. */
  stream(name: string): AsyncGenerator<Buffer>;
  close(): void;
};

const NOT_A_WORKBOOK =
  "Save it from Excel (or Google Sheets, Numbers, LibreOffice) as .xlsx or as CSV and send it again.";

/** The refusal of a file that is no workbook a spreadsheet wrote. */
export const notWorkbook = (message: string) => fail("unreadable_file", message, NOT_A_WORKBOOK);

const brokenZip = () => notWorkbook("The file starts as a zip but is not a readable .xlsx workbook.");

/** The workbook in `bytes`, its directory read and bounded; nothing unpacked yet. */
export async function openWorkbook(bytes: Uint8Array, limits: ReadLimits = READ_LIMITS): Promise<Outcome<WorkbookZip>> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const options = { lazyEntries: true, validateEntrySizes: true };
  const zip = await yauzl.fromBufferPromise(buffer, options).catch(() => undefined);
  if (zip === undefined) return brokenZip();
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    return notWorkbook(`The workbook holds ${zip.entryCount} parts; a spreadsheet has tens.`);
  }
  const entries = new Map<string, Entry>();
  try {
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName, entry);
  } catch {
    zip.close();
    return brokenZip();
  }
  return ok({
    has: (name) => entries.has(name),
    check: (names) => checkDeclared(names, entries, limits),
    stream: (name) => unpack(zip, entries.get(name), limits),
    close: () => zip.close(),
  });
}

function checkDeclared(names: string[], entries: Map<string, Entry>, limits: ReadLimits): Outcome<null> {
  let total = 0;
  for (const entry of names.flatMap((n) => entries.get(n) ?? [])) {
    if (entry.isEncrypted())
      return fail(
        "unreadable_file",
        "The workbook is protected with a password.",
        "Save a copy without a password and send that.",
      );
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize >= limits.ratioFromBytes && ratio > limits.maxRatio) {
      return fail(
        "input_too_large",
        `The workbook's part ${cut(entry.fileName)} would unpack ${Math.round(ratio)} times larger than it is packed (to ${size(entry.uncompressedSize)}); no spreadsheet packs that tight, so it was not opened.`,
        NOT_A_WORKBOOK,
      );
    }
  }
  if (total > limits.maxUnpackedBytes) {
    const [found, most] = sizePair(total, limits.maxUnpackedBytes);
    return fail("input_too_large", `The workbook would unpack to ${found}; at most ${most} is read.`, SEND_LESS);
  }
  return ok(null);
}

async function* unpack(zip: yauzl.ZipFile, entry: Entry | undefined, limits: ReadLimits): AsyncGenerator<Buffer> {
  if (entry === undefined) throw new Refused(notWorkbook("The workbook lacks a part it names."));
  const name = cut(entry.fileName);
  const lying = (detail: string) =>
    refuse(
      "input_too_large",
      `The workbook's part ${name} unpacks larger than the workbook says (${detail}), so it was not read further.`,
      NOT_A_WORKBOOK,
    );
  const stream = await zip.openReadStreamPromise(entry).catch(() => {
    throw new Refused(notWorkbook(`The workbook's part ${name} cannot be unpacked.`));
  });
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > limits.maxUnpackedBytes) throw lying(`past ${size(limits.maxUnpackedBytes)}`);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof Refused) throw error;
    // yauzl stops a part that unpacks past the size its directory entry states
    if (/too many bytes/i.test((error as Error).message))
      throw lying(`more than the ${size(entry.uncompressedSize)} it declares`);
    throw new Refused(notWorkbook(`The workbook's part ${name} is damaged.`));
  } finally {
    stream.destroy();
  }
}
