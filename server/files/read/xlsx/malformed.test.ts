/**
 * Workbooks written by hand as no library writes them, valid and not: cells and rows without a
 * reference are read; a cell past column XFD, a negative row, bytes that are not UTF-8, a DOCTYPE
 * with entities, an undefined entity, broken XML and a missing shared string are each a domain
 * error saying what is wrong with the file (never `internal`); a read past its deadline stops.
 */
import { resolveLimits } from "../../../limits.js";
import { craftedXlsx, worksheetXml } from "../../../../test-kit/staff-files.js";
import { readGrid } from "../../../../test-kit/workbooks/read-sheets.js";
import { readStaffFile } from "../staff-file.js";
import { READ_LIMITS } from "./read-limits.js";

const read = (bytes: Uint8Array) => readStaffFile(bytes, "crafted.xlsx", {}, resolveLimits());
const one = (xml: string | Buffer, options?: Parameters<typeof craftedXlsx>[1]) =>
  craftedXlsx([{ name: "직원", xml }], options);
const inline = (text: string) => `<c t="inlineStr"><is><t>${text}</t></is></c>`;
const HEADER = `<row>${inline("이름")}${inline("관심사")}</row>`;

describe("a hand-written workbook", () => {
  it("reads cells and rows that leave out their reference as the next ones", async () => {
    const xml = worksheetXml(
      `${HEADER}<row>${inline("김민준")}${inline("커피")}</row><row r="5"><c r="B5" t="inlineStr"><is><t>등산</t></is></c></row><row>${inline("박지훈")}${inline("골프")}</row>`,
    );
    expect((await readGrid(one(xml))).grid).toEqual([
      ["이름", "관심사"],
      ["김민준", "커피"],
      [],
      [],
      ["", "등산"],
      ["박지훈", "골프"],
    ]);
    expect(await read(one(xml))).toMatchObject({ ok: true, value: { preview: { people: 2, skippedCount: 3 } } });
  });

  it("reads inline rich text whole, keeps spaces, leaves phonetic guides out, and expands character references", async () => {
    const xml = worksheetXml(
      `<row><c t="inlineStr"><is><r><t>김</t></r><r><rPr><b/></rPr><t xml:space="preserve">민 준 </t></r><rPh sb="0" eb="1"><t>キム</t></rPh></is></c><c t="inlineStr"><is><t>&#44608;&amp;&lt;&#x1F381;</t></is></c></row>`,
    );
    expect((await readGrid(one(xml))).grid).toEqual([["김민 준 ", "김&<🎁"]]);
  });

  it("reads rich shared strings whole and phonetic guides out", async () => {
    const sharedStrings = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><r><t>이</t></r><r><t>서연</t></r><rPh><t>イ</t></rPh></si><si><t>독서</t></si></sst>`;
    const xml = worksheetXml(`<row><c t="s"><v>0</v></c><c t="s"><v>1</v></c></row>`);
    expect((await readGrid(one(xml, { sharedStrings }))).grid).toEqual([["이서연", "독서"]]);
  });

  it("reads dates in the 1904 system and by custom formats, times of day too", async () => {
    const styles = `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy&quot;년&quot; m&quot;월&quot; d&quot;일&quot;"/><numFmt numFmtId="165" formatCode="[$-412]#,##0&quot;원&quot;"/></numFmts><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="20"/></cellXfs></styleSheet>`;
    const xml = worksheetXml(`<row><c s="1"><v>0</v></c><c s="2"><v>50000</v></c><c s="3"><v>0.5625</v></c></row>`);
    expect((await readGrid(one(xml, { styles, date1904: true }))).grid).toEqual([
      ["1904-01-01", "50000원", "13:30:00"],
    ]);
    expect((await readGrid(one(xml, { styles }))).grid).toEqual([["1899-12-31", "50000원", "13:30:00"]]);
  });

  it("chooses and fills from merges listed after thousands of rows, a namespace prefix on every tag", async () => {
    const x = (text: string) => `<x:c t="inlineStr"><x:is><x:t>${text}</x:t></x:is></x:c>`;
    const rows = Array.from({ length: 3_000 }, (_, i) => `<x:row>${x(`김민준${i}`)}${x("커피")}</x:row>`).join("");
    const xml = `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row>${x("명단")}</x:row><x:row>${x("이름")}${x("관심사")}</x:row>${rows}</x:sheetData><x:mergeCells><x:mergeCell ref="A1:B1"/></x:mergeCells></x:worksheet>`;
    const bytes = craftedXlsx([
      { name: "안내", xml: worksheetXml(`<row>${inline("읽어 주세요")}</row>`) },
      { name: "직원", xml },
    ]);
    const { grid, sheets, sheet } = await readGrid(bytes);
    expect({ sheet, sheets }).toEqual({
      sheet: "직원",
      sheets: [
        { name: "안내", rows: 1, hidden: false },
        { name: "직원", rows: 3_002, hidden: false },
      ],
    });
    expect(grid.slice(0, 3)).toEqual([
      ["명단", "명단"],
      ["이름", "관심사"],
      ["김민준0", "커피"],
    ]);
    expect(grid.at(-1)).toEqual(["김민준2999", "커피"]);
  });

  const refused: [string, string | Buffer, RegExp][] = [
    ["a cell past column XFD", worksheetXml(`<row r="2"><c r="XFE2"><v>1</v></c></row>`), /a cell at "XFE2"/],
    ["a negative row", worksheetXml(`<row r="-1"><c><v>1</v></c></row>`), /a row numbered "-1"/],
    ["rows out of order", worksheetXml(`<row r="3"/><row r="2"/>`), /row 2 after row 3/],
    [
      "bytes that are not UTF-8",
      Buffer.concat([
        Buffer.from(worksheetXml(`<row>${inline("김")}`).slice(0, -30)),
        Buffer.from([0xea, 0xb9, 0x41]),
        Buffer.from("</t></is></c></row></sheetData></worksheet>"),
      ]),
      /not valid UTF-8/,
    ],
    [
      "a DOCTYPE with entities",
      `<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><worksheet><sheetData><row><c t="inlineStr"><is><t>&b;</t></is></c></row></sheetData></worksheet>`,
      /declares a DOCTYPE/,
    ],
    ["an undefined entity", worksheetXml(`<row>${inline("&nbsp;")}</row>`), /not well-formed XML/],
    ["broken XML", worksheetXml(`<row><c><v>1</c></row>`), /not well-formed XML/],
    ["a shared string it does not hold", worksheetXml(`<row><c t="s"><v>7</v></c></row>`), /shared text #7/],
  ];
  it.each(refused)("refuses %s with a sentence about the file", async (_, xml, message) => {
    const r = await read(one(xml));
    expect(r).toMatchObject({
      ok: false,
      error: { code: "unreadable_file", message: expect.stringMatching(message) },
    });
    if (!r.ok) expect(r.error.message).not.toMatch(/node_modules|\.ts:|\.js:/);
  });

  it("stops a read past its deadline", async () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => `<row>${inline(`김민준${i}`)}${inline("커피")}</row>`).join(
      "",
    );
    const bytes = one(worksheetXml(HEADER + rows));
    await expect(readGrid(bytes, undefined, { ...READ_LIMITS, deadlineMs: -1 })).rejects.toThrow(
      /input_too_large: Reading the workbook took longer than 0 s/,
    );
  });
});
