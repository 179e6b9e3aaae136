/**
 * Korean text wherever the pieces of an unpacking sheet end: a SheetJS workbook (its strings kept
 * in the sheet, `t="str"`) whose sheet XML puts a Hangul syllable's bytes across every offset
 * around 64 KB, read in pieces of the sizes inflate gives and of odd sizes (1 byte, 7, 4,093,
 * 65,537): no replacement character anywhere, every cell as written.
 */
import * as XLSX from "xlsx";
import { createPace } from "../pace.js";
import { openWorkbook, type WorkbookZip } from "./unzip.js";
import { readSheets } from "../xlsx.js";
import { READ_LIMITS } from "./read-limits.js";

const BOUNDARY = 64 * 1024;

/** Korean rows; `pad` ASCII bytes in the first name shift every byte after it, and so where 64 KB falls. */
const rowsOf = (pad: number) => [
  ["이름", "부서", "관심사"],
  ...Array.from({ length: 4_000 }, (_, i) => [
    `${"a".repeat(i === 0 ? pad : i % 5)}김민준${i}`,
    i % 2 ? "영업팀" : "고객지원팀",
    "등산",
  ]),
];

function sheetJsWorkbook(rows: string[][]): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), "직원");
  return new Uint8Array(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
}

/** How many bytes of the character that holds byte 64 K come before it: 0 when a character starts there. */
async function cutAt64k(bytes: Uint8Array): Promise<number> {
  const opened = await openWorkbook(bytes);
  if (!opened.ok) throw new Error(opened.error.message);
  const chunks: Buffer[] = [];
  for await (const piece of opened.value.stream("xl/worksheets/sheet1.xml")) chunks.push(piece);
  const xml = Buffer.concat(chunks);
  expect(xml.toString("utf8")).toContain('t="str"');
  let start = BOUNDARY;
  while ((xml[start] & 0xc0) === 0x80) start--; // back over continuation bytes to the character's first
  return BOUNDARY - start;
}

/** `zip` whose parts stream in pieces of `size` bytes, whatever inflate gave. */
function rechunked(zip: WorkbookZip, size: number): WorkbookZip {
  return {
    ...zip,
    async *stream(name) {
      let held = Buffer.alloc(0);
      for await (const piece of zip.stream(name)) {
        held = Buffer.concat([held, piece]);
        while (held.length >= size) {
          yield held.subarray(0, size);
          held = held.subarray(size);
        }
      }
      if (held.length > 0) yield held;
    },
  };
}

async function readAll(bytes: Uint8Array, size?: number): Promise<string[][]> {
  const opened = await openWorkbook(bytes);
  if (!opened.ok) throw new Error(opened.error.message);
  const zip = size === undefined ? opened.value : rechunked(opened.value, size);
  const found = await readSheets(zip, undefined, { limits: READ_LIMITS, pace: createPace(), now: () => 0 });
  if (!found.ok) throw new Error(found.error.message);
  const rows: string[][] = [];
  for await (const batch of found.value.rows) for (const r of batch) if ("cells" in r) rows.push(r.cells);
  return rows;
}

// with these shifts 64 KB falls inside a run of Hangul: after a syllable's second byte, its first, and between two
const PADS = [29, 30, 31];
const workbooks = PADS.map((pad) => ({ pad, rows: rowsOf(pad), bytes: sheetJsWorkbook(rowsOf(pad)) }));

describe("a sheet's Korean text across the pieces it unpacks in", () => {
  it("has workbooks whose 64 KB falls after a syllable's first byte and after its second", async () => {
    const cuts = await Promise.all(workbooks.map((w) => cutAt64k(w.bytes)));
    expect(cuts).toEqual([2, 1, 0]);
  });

  const cases = workbooks.flatMap((w) =>
    [undefined, 7, 4_093, 65_535, 65_537].map((size) => [w.pad, size, w] as const),
  );
  it.each(cases)("reads every cell whole (shift %s, pieces of %s bytes)", async (_, size, { rows, bytes }) => {
    const read = await readAll(bytes, size);
    expect(read.some((r) => r.some((c) => c.includes("\uFFFD")))).toBe(false);
    expect(read).toEqual(rows);
  });

  it("reads every cell whole a byte at a time", async () => {
    expect(await readAll(workbooks[1].bytes, 1)).toEqual(workbooks[1].rows);
  });
});
