/**
 * Real staff files for tests and benchmarks, made the way people's tools make them: .xlsx written
 * by exceljs, CSV text encoded as Korean Excel (CP949), Windows (UTF-16 "Unicode text") or any
 * other encoding by iconv-lite, and hostile zips built byte by byte (a sheet of zeros that unpacks
 * to hundreds of MB, with an honest or a lying directory). Free of any test framework.
 */
import { constants, crc32, deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import iconv from "iconv-lite";

type Cell = string | number | Date | ExcelJS.CellValue;

/** A row put at a row number of its own, leaving the rows before it out. */
type PlacedRow = { at: number; cells: Cell[] };

/** An .xlsx whose sheet holds `rows` (row 1 first); `before` and `after` add sheets around it. */
export async function staffXlsx(
  rows: (Cell[] | PlacedRow)[],
  { name = "Staff", before = [], after = [] }: { name?: string; before?: string[]; after?: string[] } = {},
): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  for (const other of before) workbook.addWorksheet(other).addRow(["notes"]);
  const sheet = workbook.addWorksheet(name);
  for (const row of rows) {
    if (Array.isArray(row)) sheet.addRow(row);
    else sheet.getRow(row.at).values = row.cells;
  }
  for (const other of after) workbook.addWorksheet(other).addRow(["name", "interests"]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

export type TextEncodingName =
  "utf-8" | "utf-8-bom" | "utf-16le" | "utf-16le-bom" | "utf-16be-bom" | "cp949" | "windows-1252";

/** `text` as bytes in `encoding`, with a byte-order mark where the name says so. */
export function encodeText(text: string, encoding: TextEncodingName): Uint8Array {
  const bom = encoding.endsWith("-bom");
  const base = encoding.replace(/-bom$/, "");
  const mark = !bom ? [] : base === "utf-8" ? [0xef, 0xbb, 0xbf] : base === "utf-16le" ? [0xff, 0xfe] : [0xfe, 0xff];
  const body = base === "utf-8" ? Buffer.from(text, "utf8") : iconv.encode(text, base);
  return new Uint8Array([...mark, ...body]);
}

/** Rows as delimited text, quoting a field only where it must be. */
export function delimited(rows: string[][], separator = ",", newline = "\n"): string {
  const quote = (f: string) => (f.includes(separator) || /["\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
  return rows.map((r) => r.map(quote).join(separator)).join(newline) + newline;
}

type ZipEntry = { name: string; data: Buffer; method: 0 | 8; crc: number; size: number; declaredSize?: number };

/** A zip from entries already packed, each declaring `declaredSize` (its real size unless given). */
function zipOf(entries: ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const declared = e.declaredSize ?? e.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, e.data);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(e.method, 10);
    dir.writeUInt16LE(0x21, 14);
    dir.writeUInt32LE(e.crc, 16);
    dir.writeUInt32LE(e.data.length, 20);
    dir.writeUInt32LE(declared, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += 30 + name.length + e.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const deflated = (text: string): ZipEntry => {
  const data = Buffer.from(text);
  return { name: "", data: deflateRawSync(data), method: 8, crc: crc32(data), size: data.length };
};

/**
 * A deflate stream of `megabytes` MB of zeros, a few hundred KB packed: one megabyte packed once
 * and repeated (each copy refers only to itself, and ends on a byte boundary), then a last block.
 */
function zerosDeflated(megabytes: number): { data: Buffer; crc: number; size: number } {
  const mb = Buffer.alloc(1024 * 1024);
  const piece = deflateRawSync(mb, { finishFlush: constants.Z_SYNC_FLUSH, level: 9 });
  let crc = 0;
  for (let i = 0; i < megabytes; i++) crc = crc32(mb, crc);
  const data = Buffer.concat([...Array.from({ length: megabytes }, () => piece), deflateRawSync(Buffer.alloc(0))]);
  return { data, crc, size: megabytes * mb.length };
}

/**
 * An .xlsx-shaped zip (workbook, relations, one sheet) whose sheet unpacks to `megabytes` MB of
 * zeros: declared honestly, or as `declaredBytes` so that only unpacking shows its real size.
 */
export function zipBombXlsx(megabytes: number, { declaredBytes }: { declaredBytes?: number } = {}): Uint8Array {
  const zeros = zerosDeflated(megabytes);
  const workbook =
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Staff" sheetId="1" r:id="rId1"/></sheets></workbook>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';
  return zipOf([
    { ...deflated(workbook), name: "xl/workbook.xml" },
    { ...deflated(rels), name: "xl/_rels/workbook.xml.rels" },
    {
      name: "xl/worksheets/sheet1.xml",
      method: 8,
      ...zeros,
      declaredSize: declaredBytes ?? zeros.size,
    },
  ]);
}

/** A sheet of a crafted workbook: its XML as written (a `<sheetData>` and what follows), and whether it is hidden. */
type CraftedSheet = { name: string; xml: string | Buffer; hidden?: boolean; part?: string };

const SHEET_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

/**
 * A workbook written by hand, part by part, as no library would: sheets whose XML is given whole
 * (malformed ones too), shared strings and styles when given, the sheets under unusual part names.
 */
export function craftedXlsx(
  sheets: CraftedSheet[],
  { sharedStrings, styles, date1904 = false }: { sharedStrings?: string; styles?: string; date1904?: boolean } = {},
): Uint8Array {
  const list = sheets
    .map(
      (s, i) => `<sheet name="${s.name}" sheetId="${i + 1}"${s.hidden ? ' state="hidden"' : ""} r:id="rId${i + 1}"/>`,
    )
    .join("");
  const workbook = `<?xml version="1.0" encoding="UTF-8"?><workbook ${SHEET_NS} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr${date1904 ? ' date1904="1"' : ""}/><sheets>${list}</sheets></workbook>`;
  const rel = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const rels = [
    ...sheets.map((s, i) => rel(`rId${i + 1}`, "worksheet", s.part ?? `worksheets/part-${i + 1}.xml`)),
    ...(sharedStrings === undefined ? [] : [rel("rIdS", "sharedStrings", "sharedStrings.xml")]),
    ...(styles === undefined ? [] : [rel("rIdT", "styles", "styles.xml")]),
  ].join("");
  const entries: ZipEntry[] = [
    { ...deflated(workbook), name: "xl/workbook.xml" },
    {
      ...deflated(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
      ),
      name: "xl/_rels/workbook.xml.rels",
    },
    ...sheets.map((s, i) => ({
      ...deflatedBytes(Buffer.from(s.xml)),
      name: `xl/${s.part ?? `worksheets/part-${i + 1}.xml`}`,
    })),
  ];
  if (sharedStrings !== undefined) entries.push({ ...deflated(sharedStrings), name: "xl/sharedStrings.xml" });
  if (styles !== undefined) entries.push({ ...deflated(styles), name: "xl/styles.xml" });
  return zipOf(entries);
}

/** A worksheet's XML around `inner` (rows, then merges). */
export const worksheetXml = (inner: string, after = "") =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet ${SHEET_NS}><sheetData>${inner}</sheetData>${after}</worksheet>`;

const deflatedBytes = (data: Buffer): Omit<ZipEntry, "name"> => ({
  data: deflateRawSync(data),
  method: 8,
  crc: crc32(data),
  size: data.length,
});

/** A workbook whose shared strings are `count` distinct tiny strings; `declared` says how many in `uniqueCount`. */
export function sharedStringsBombXlsx(count: number, declared: boolean): Uint8Array {
  const parts: string[] = [`<sst ${SHEET_NS}${declared ? ` uniqueCount="${count}"` : ""}>`];
  for (let i = 0; i < count; i++) parts.push(`<si><t>${i.toString(36)}</t></si>`);
  parts.push("</sst>");
  const sheet = worksheetXml(`<row><c t="s"><v>0</v></c></row>`);
  return craftedXlsx([{ name: "Staff", xml: sheet }], { sharedStrings: parts.join("") });
}
