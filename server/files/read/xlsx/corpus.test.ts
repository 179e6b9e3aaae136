/**
 * The same Korean and English staff workbook as other programs write it, read back cell by cell:
 * SheetJS (strings kept in the sheet as `t="str"`, and as shared strings), exceljs (shared strings,
 * rich text), both written here at test time, and openpyxl (inline strings, character references)
 * and LibreOffice, written once by scripts/workbook-corpus/ and kept in test-kit/workbooks/. Each
 * has a guide sheet before the list, a merged title and header, a hidden sheet, numbers stored as
 * text, dates, booleans, an error and formulas with their results; every cell reads as written.
 */
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import * as XLSX from "xlsx";
import { readGrid, type Grid } from "../../../../test-kit/workbooks/read-sheets.js";
import { resolveLimits } from "../../../limits.js";
import { readStaffFile } from "../staff-file.js";

const TITLE = "2025 연말 선물 명단";
const GUIDE = [["이 파일은 연말 선물 직원 명단입니다."], ["Staff list for the year-end gifts"]];
const HIDDEN = [
  ["이름", "관심사"],
  ["박지훈", "골프"],
];
/** The staff sheet as a person sees it: the merged title and "비고" read in every cell they cover. */
const STAFF: Grid = [
  Array<string>(8).fill(TITLE),
  ["사번", "이름", "부서", "관심사", "예산", "입사일", "재직", "비고", "비고"],
  ["1001", "김민준", "개발팀", "등산, 커피", "50000", "2021-03-04", "TRUE", "정규직"],
  ["1002", "이서연", "영업팀", "독서 | 음악", "30000", "2022-11-15T09:30:00", "FALSE", "정규직"],
  ["1003", "Emma Stone", "Marketing", "yoga, movies", "0.3", "1999-12-31", "TRUE", "#N/A"],
];
const EXPECTED: Record<string, Grid> = { 안내: GUIDE, 직원: STAFF, 숨김: HIDDEN };

/** Excel's serial of a UTC date. */
const serial = (ms: number) => ms / 86_400_000 + 25_569;

function sheetJs(bookSST: boolean): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(GUIDE), "안내");
  const ws = XLSX.utils.aoa_to_sheet([[TITLE], STAFF[1].slice(0, 8), ["", "김민준", "개발팀", "등산, 커피"]]);
  const set = (ref: string, cell: XLSX.CellObject) => (ws[ref] = cell);
  set("A3", { t: "n", v: 1001 });
  set("E3", { t: "n", v: 50000, z: "#,##0" });
  set("F3", { t: "n", v: serial(Date.UTC(2021, 2, 4)), z: "yyyy-mm-dd" });
  set("G3", { t: "b", v: true });
  set("H3", { t: "s", v: "정규직" });
  ["1002", "이서연", "영업팀", "독서 | 음악"].forEach((v, i) => set(`${"ABCD"[i]}4`, { t: "s", v }));
  set("E4", { t: "n", v: 30000, f: "E3-20000" });
  set("F4", { t: "n", v: serial(Date.UTC(2022, 10, 15, 9, 30)), z: "yyyy-mm-dd hh:mm" });
  set("G4", { t: "b", v: false });
  set("H4", { t: "s", v: "정규직", f: '"정"&"규직"' });
  [1003, "Emma Stone", "Marketing", "yoga, movies"].forEach((v, i) =>
    set(`${"ABCD"[i]}5`, typeof v === "number" ? { t: "n", v } : { t: "s", v }),
  );
  set("E5", { t: "n", v: 0.1 + 0.2 });
  set("F5", { t: "n", v: serial(Date.UTC(1999, 11, 31)), z: "yyyy-mm-dd" });
  set("G5", { t: "b", v: true });
  set("H5", { t: "e", v: 0x2a }); // #N/A
  ws["!ref"] = "A1:I5";
  ws["!merges"] = [XLSX.utils.decode_range("A1:H1"), XLSX.utils.decode_range("H2:I2")];
  XLSX.utils.book_append_sheet(wb, ws, "직원");
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(HIDDEN), "숨김");
  wb.Workbook = { Sheets: [{ Hidden: 0 }, { Hidden: 0 }, { Hidden: 1 }] };
  return new Uint8Array(XLSX.write(wb, { type: "buffer", bookType: "xlsx", bookSST }) as Buffer);
}

async function excelJs(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const guide = wb.addWorksheet("안내");
  for (const row of GUIDE) guide.addRow(row);
  const ws = wb.addWorksheet("직원");
  ws.addRow([TITLE]);
  ws.addRow(STAFF[1].slice(0, 8));
  ws.addRow([1001, "김민준", "개발팀", "등산, 커피", 50000, new Date(Date.UTC(2021, 2, 4)), true, "정규직"]);
  ws.addRow([
    "1002",
    { richText: [{ text: "이" }, { font: { bold: true }, text: "서" }, { text: "연" }] },
    "영업팀",
    "독서 | 음악",
    { formula: "E3-20000", result: 30000 },
    new Date(Date.UTC(2022, 10, 15, 9, 30)),
    false,
    { formula: '"정"&"규직"', result: "정규직" },
  ]);
  ws.addRow([
    1003,
    "Emma Stone",
    "Marketing",
    "yoga, movies",
    0.1 + 0.2,
    new Date(Date.UTC(1999, 11, 31)),
    true,
    { error: "#N/A" },
  ]);
  ws.mergeCells("A1:H1");
  ws.mergeCells("H2:I2");
  const hidden = wb.addWorksheet("숨김", { state: "hidden" });
  for (const row of HIDDEN) hidden.addRow(row);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../../test-kit/workbooks/${name}`, import.meta.url)));

/** A committed workbook and the cells its writer stored (openpyxl keeps no formula results). */
function committed(name: string): { bytes: Uint8Array; expected: Record<string, Grid> } {
  const json = JSON.parse(
    readFileSync(new URL(`../../../../test-kit/workbooks/${name}.json`, import.meta.url), "utf8"),
  ) as {
    sheets: Record<string, Grid>;
  };
  return { bytes: fixture(`${name}.xlsx`), expected: json.sheets };
}

const WRITERS: [string, () => Promise<{ bytes: Uint8Array; expected: Record<string, Grid> }>][] = [
  ["SheetJS, strings in the sheet", async () => ({ bytes: sheetJs(false), expected: EXPECTED })],
  ["SheetJS, shared strings", async () => ({ bytes: sheetJs(true), expected: EXPECTED })],
  ["exceljs", async () => ({ bytes: await excelJs(), expected: EXPECTED })],
  ["openpyxl", async () => committed("openpyxl-staff")],
  ["LibreOffice", async () => committed("libreoffice-staff")],
];

describe.each(WRITERS)("a workbook written by %s", (_, make) => {
  it("reads every cell of every sheet as written", async () => {
    const { bytes, expected } = await make();
    for (const [sheet, grid] of Object.entries(expected)) {
      expect({ sheet, grid: (await readGrid(bytes, sheet)).grid }).toEqual({ sheet, grid });
    }
  });

  it("opens on the staff list, not the guide before it nor the hidden sheet, and lists all three", async () => {
    const { bytes } = await make();
    const { sheets, sheet } = await readGrid(bytes);
    expect(sheet).toBe("직원");
    expect(sheets).toEqual([
      { name: "안내", rows: 2, hidden: false },
      { name: "직원", rows: 5, hidden: false },
      { name: "숨김", rows: 2, hidden: true },
    ]);
    const table = await readStaffFile(bytes, "직원.xlsx", {}, resolveLimits());
    expect(table).toMatchObject({ ok: true, value: { preview: { sheet: "직원", people: 3, ready: true } } });
  });
});
