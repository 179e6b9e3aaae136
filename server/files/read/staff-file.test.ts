/**
 * Real staff files, made in the test as people's tools make them, read end to end: .xlsx with
 * Korean headers and every kind of cell, CSV from Korean Excel (CP949), UTF-8 with a BOM, UTF-16
 * with and without one, semicolons, tabs, quoted line breaks, blank lines, synonyms; the format
 * told by the bytes, not the name; an encoding that cannot be told becomes a question.
 */
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { resolveLimits } from "../../limits.js";
import { delimited, encodeText, staffXlsx, type TextEncodingName } from "../../../test-kit/staff-files.js";
import { previewText } from "./preview-text.js";
import { readStaffFile } from "./staff-file.js";

const limits = resolveLimits();

async function read(bytes: Uint8Array, name = "staff.csv", reading = {}) {
  const r = await readStaffFile(bytes, name, reading, limits);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const KOREAN = [
  ["이름", "부서", "관심사", "예산"],
  ["김민준", "영업팀", "커피;등산", "30"],
  ["이서연", "개발팀", "독서 | 음악", ""],
  ["박지훈", "인사팀", "요가", "45"],
];

describe("readStaffFile: workbooks", () => {
  it("reads an .xlsx with Korean headers, every kind of cell as the text it shows", async () => {
    const bytes = await staffXlsx(
      [
        ["직원 명단 2025"], // a title above the header
        [],
        ["성명", "팀", "취미", "선물 예산", "입사일"],
        ["김민준", "영업", "커피;등산", 30, new Date(Date.UTC(2021, 2, 4))],
        ["이서연", { richText: [{ text: "개발" }, { text: "팀" }] }, "독서", { formula: "20+25", result: 45 }, ""],
        ["박지훈", "인사", { text: "요가", hyperlink: "https://example.com" }, 49.99, true],
      ],
      { after: ["메모"] },
    );
    const { preview, csv } = await read(bytes, "직원.xlsx");
    expect(preview).toMatchObject({
      format: "xlsx",
      encoding: null,
      sheets: [
        { name: "Staff", rows: 5, hidden: false },
        { name: "메모", rows: 1, hidden: false },
      ],
      sheet: "Staff",
      headers: ["성명", "팀", "취미", "선물 예산", "입사일"],
      columns: { name: 0, department: 1, interests: 2, budget: 3 },
      rows: 3,
      people: 3,
      skippedCount: 0,
      problems: [],
      ready: true,
    });
    expect(preview.sample).toEqual([
      { row: 4, name: "김민준", department: "영업", interests: "커피;등산", budget: "30" },
      { row: 5, name: "이서연", department: "개발팀", interests: "독서", budget: "45" },
      { row: 6, name: "박지훈", department: "인사", interests: "요가", budget: "49.99" },
    ]);
    expect(csv).toBe(
      "row,name,department,interests,budget,skip,id\n4,김민준,영업,커피;등산,30,,\n5,이서연,개발팀,독서,45,,\n6,박지훈,인사,요가,49.99,,\n",
    );
  });

  it("reads the sheet whose header fits a staff list, or the one chosen, and lists them all", async () => {
    const bytes = await staffXlsx(KOREAN, { name: "명단", before: ["표지"], after: ["Other"] });
    // the cover sheet comes first but has no staff header; "Other" has one but no rows under it
    const sheets = [
      { name: "표지", rows: 1, hidden: false },
      { name: "명단", rows: 4, hidden: false },
      { name: "Other", rows: 1, hidden: false },
    ];
    expect((await read(bytes, "a.xlsx")).preview).toMatchObject({ sheets, sheet: "명단", people: 3, ready: true });
    const cover = await read(bytes, "a.xlsx", { sheet: "표지" });
    expect(cover.preview).toMatchObject({ sheet: "표지", ready: false });
    // what the model reads when the sheet cannot start: the sheets with their rows, the header found
    expect(cover.preview.problems.join(" ")).toContain('the header has "notes". Choose the column with');
    expect(cover.preview.problems.at(-1)).toBe(
      'The workbook\'s sheets are "표지" (1 row), "명단" (4 rows), "Other" (1 row); "표지" was read. Another is read when named (reading: { sheet }).',
    );
    const missing = await readStaffFile(bytes, "a.xlsx", { sheet: "Nope" }, limits);
    expect(missing).toMatchObject({
      ok: false,
      error: {
        message: 'The workbook has no sheet "Nope"; its sheets are "표지" (1 row), "명단" (4 rows), "Other" (1 row).',
      },
    });
  });

  it("reads every Korean name of a long sheet whole, wherever the reader's pieces fall", async () => {
    const rows = [["이름", "관심사"], ...Array.from({ length: 12_000 }, (_, i) => [`김민준${i}`, "tea"])];
    const { preview, csv } = await read(await staffXlsx(rows), "a.xlsx");
    expect(preview.people).toBe(12_000);
    expect(csv).not.toContain("\uFFFD");
    expect(csv).toContain("김민준11999");
  });

  it("tells the format by the bytes: an .xlsx named .csv, a CSV named .xlsx", async () => {
    const xlsx = await staffXlsx(KOREAN);
    expect((await read(xlsx, "export.csv")).preview.format).toBe("xlsx");
    const csv = encodeText(delimited(KOREAN), "utf-8");
    expect((await read(csv, "export.xlsx")).preview).toMatchObject({ format: "csv", people: 3 });
  });

  it("refuses what is not a staff list, saying what to do", async () => {
    const old = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(await readStaffFile(old, "a.xls", {}, limits)).toMatchObject({
      ok: false,
      error: {
        code: "unreadable_file",
        message: expect.stringContaining(".xls"),
        hint: expect.stringContaining("CSV"),
      },
    });
    const binary = new Uint8Array(Array.from({ length: 4000 }, (_, i) => (i * 7) % 256));
    expect(await readStaffFile(binary, "a.csv", {}, limits)).toMatchObject({ ok: false });
    // a picture renamed .xlsx: its own code, so the widget says it in the person's language
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    expect(await readStaffFile(png, "명단.xlsx", {}, limits)).toMatchObject({
      ok: false,
      error: { code: "unreadable_file", message: "The file is neither a spreadsheet nor a CSV or text file." },
    });
    expect(await readStaffFile(new Uint8Array(), "a.csv", {}, limits)).toMatchObject({ ok: false });
  });
});

describe("readStaffFile: text", () => {
  it.each<[TextEncodingName, string]>([
    ["cp949", "euc-kr"],
    ["utf-8", "utf-8"],
    ["utf-8-bom", "utf-8"],
    ["utf-16le-bom", "utf-16le"],
    ["utf-16le", "utf-16le"],
    ["utf-16be-bom", "utf-16be"],
  ])("reads a Korean CSV in %s, certain of its encoding", async (encoding, detected) => {
    const { preview } = await read(encodeText(delimited(KOREAN), encoding));
    expect(preview).toMatchObject({ encoding: detected, encodingCertain: true, people: 3, ready: true });
    expect(preview.sample.map((r) => r.name)).toEqual(["김민준", "이서연", "박지훈"]);
    expect(preview.headers[0]).toBe("이름"); // no BOM left in the first header
  });

  it("reads tab-separated UTF-16 (Excel's Unicode text) and semicolons, with synonyms", async () => {
    const rows = [
      ["Full name", "Team", "Hobbies", "Amount"],
      ["Ada Lovelace", "R&D; Lab", "math, poetry", "$1,250"],
    ];
    const tsv = await read(encodeText(delimited(rows, "\t", "\r\n"), "utf-16le-bom"));
    expect(tsv.preview).toMatchObject({
      separator: "\t",
      columns: { name: 0, department: 1, interests: 2, budget: 3 },
    });
    expect(tsv.preview.sample[0]).toMatchObject({ department: "R&D; Lab", interests: "math, poetry" });
    const semi = await read(encodeText(delimited(rows, ";"), "utf-8"));
    expect(semi.preview).toMatchObject({ separator: ";", people: 1 });
    expect(semi.preview.sample[0]).toMatchObject({ department: "R&D; Lab", budget: "$1,250" });
  });

  it("keeps quoted line breaks in their row, numbers rows as a spreadsheet does, and passes blank lines", async () => {
    const text = '\n\nname,department,interests\n"Line\nBreak",Sales,"a;\nb"\n\nAna,Ops,tea\n\n\n';
    const { preview, csv } = await read(encodeText(text, "utf-8"));
    expect(preview).toMatchObject({ rows: 3, people: 2, skippedCount: 1 });
    expect(preview.sample.map((r) => [r.row, r.name])).toEqual([
      [4, "Line\nBreak"],
      [6, "Ana"],
    ]);
    expect(preview.skipped).toEqual([{ row: 5, reason: "the row is empty" }]);
    expect(csv).toBe(
      'row,name,department,interests,budget,skip,id\n4,"Line\nBreak",Sales,"a;\nb",,,\n5,,,,,the row is empty,\n6,Ana,Ops,tea,,,\n',
    );
  });

  it("asks for the encoding when it cannot be told, and reads it as told", async () => {
    const bytes = encodeText(
      delimited([
        ["name", "interests"],
        ["José Núñez", "café"],
      ]),
      "windows-1252",
    );
    const guessed = await read(bytes);
    expect(guessed.preview).toMatchObject({ encoding: "windows-1252", encodingCertain: false, ready: false });
    expect(guessed.preview.problems[0]).toMatch(/encoding could not be told.*UTF-8, UTF-16, EUC-KR\/CP949/);
    expect(previewText(guessed.preview)).toContain("(a guess)");
    const told = await read(bytes, "staff.csv", { encoding: "windows-1252" });
    expect(told.preview).toMatchObject({ encodingCertain: true, ready: true });
    expect(told.preview.sample[0].name).toBe("José Núñez");
  });

  it("refuses a CSV of one 8 MB line before splitting it", async () => {
    const line = Array.from({ length: 800_000 }, (_, i) => `w${i}`).join(";");
    expect(line.length).toBeGreaterThan(6_000_000);
    const r = await readStaffFile(encodeText(`name,interests,${line}`, "utf-8"), "one-line.csv", {}, limits);
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: "input_too_large",
        message: expect.stringMatching(/^Row 1 has a cell of more than 32,767 characters/),
      },
    });
  });
});

describe("previewText", () => {
  it("says how the file was read, the columns, the people and the first rows skipped", async () => {
    const rows = [
      ["이름", "관심사"],
      ["A", "x"],
      ["", "y"],
      ["a ", "X"],
      ...Array.from({ length: 6 }, () => ["", ""]),
      ["B", "w"],
    ];
    const { preview } = await read(encodeText(delimited(rows), "utf-8"), "팀.csv");
    expect(previewText(preview)).toBe(
      [
        'Read "팀.csv" as CSV in UTF-8, fields separated by commas.',
        'Columns: name ← "이름", department ← none, interests ← "관심사", budget ← none (the default budget applies). Budgets read in USD.',
        "10 rows: 2 people, 8 skipped (row 3: it has no name; row 4: it repeats row 2; row 5: the row is empty; row 6: the row is empty; row 7: the row is empty; and 3 more).",
        "Ready to start.",
      ].join("\n"),
    );
  });

  it("says who has a budget under the cheapest gift: dollars typed into a list read in won", async () => {
    const rows = [
      ["이름", "관심사", "예산"],
      ["김민준", "등산", "40"],
      ["이서연", "커피", "5만원"],
      ["박도윤", "독서", "60"],
      ["최하은", "요가", ""],
    ];
    const bytes = encodeText(delimited(rows), "utf-8");
    const { preview } = await read(bytes, "팀.csv", { currency: "KRW" });
    // a blank budget takes the job's default, which the start checks
    expect(preview.lowBudgets).toEqual({ count: 2, rows: [2, 4], cheapest: 6_500 });
    expect(preview.ready).toBe(true); // a notice, not a problem: the person decides
    expect(previewText(preview).split("\n")).toContain(
      "2 people have budgets under the cheapest gift (₩6,500), so would get none (rows 2, 4). " +
        "If the file's budgets are in another currency than KRW, read it again with reading.currency set to theirs and start the job in it.",
    );
    const dollars = await read(bytes, "팀.csv", { currency: "USD" });
    expect(dollars.preview.lowBudgets).toBeUndefined();
    expect(dollars.preview.skippedCount).toBe(1); // 5만원 names won
  });

  it("asks for the file's own currency when most of its budgets name another than the job's", async () => {
    // written by openpyxl 3.0.9: won typed five ways, two plain numbers, one blank
    const bytes = new Uint8Array(
      readFileSync(new URL("../../../test-kit/workbooks/openpyxl-won.xlsx", import.meta.url)),
    );
    const dollars = await read(bytes, "직원.xlsx", { currency: "USD" });
    expect(dollars.preview).toMatchObject({ people: 3, skippedCount: 5, ready: false, currency: "USD" });
    const problem =
      "Most of the file's budgets are written in KRW (5 rows), but the job's budget is in USD, so those rows would be skipped. Read the file in KRW (reading: { currency: \"KRW\" }) and start the job in KRW, or write those budgets in USD.";
    expect(dollars.preview.problems).toEqual([problem]);
    expect(previewText(dollars.preview).split("\n").at(-1)).toBe(`To settle before starting: ${problem}`);
    const won = await read(bytes, "직원.xlsx", { currency: "KRW" });
    expect(won.preview).toMatchObject({ people: 8, skippedCount: 0, ready: true, problems: [], currency: "KRW" });
    const budgets = parse<{ budget: string }>(won.csv, { columns: true }).map((r) => r.budget);
    expect(budgets).toEqual(["₩50,000", "50,000원", "70000", "KRW 40,000", "₩ 35,000", "5만원", "", "45000"]);
  });

  it("keeps the currency of a budget column formatted as money, as Excel, LibreOffice and Google Sheets write it", async () => {
    // written by openpyxl 3.0.9: numbers under the format codes each program writes for won, one plain
    const bytes = new Uint8Array(
      readFileSync(new URL("../../../test-kit/workbooks/openpyxl-won-formats.xlsx", import.meta.url)),
    );
    // 50000 under "₩#,##0" is fifty thousand won, never fifty thousand dollars
    const dollars = await read(bytes, "직원.xlsx", {});
    expect(dollars.preview).toMatchObject({ people: 1, skippedCount: 5, ready: false, otherCurrency: "KRW" });
    expect(dollars.preview.skipped[0]).toEqual({
      row: 2,
      reason: "its budget ₩50000 is in KRW, but the job's budget is in USD",
    });
    const won = await read(bytes, "직원.xlsx", { currency: "KRW" });
    expect(won.preview).toMatchObject({ people: 6, skippedCount: 0, ready: true, problems: [], currency: "KRW" });
    const budgets = parse<{ budget: string }>(won.csv, { columns: true }).map((r) => r.budget);
    expect(budgets).toEqual(["₩50000", "₩30000", "₩70000", "₩45000", "60000원", "55000"]);
  });

  it("keeps the won of a LibreOffice workbook's ko-KR currency cells", async () => {
    // saved by LibreOffice 7.4 from a sheet of ko-KR currency cells ("[$₩-412]#,##0"), one "#,##0\원", one plain
    const bytes = new Uint8Array(
      readFileSync(new URL("../../../test-kit/workbooks/libreoffice-won-formats.xlsx", import.meta.url)),
    );
    const dollars = await read(bytes, "직원.xlsx", {});
    expect(dollars.preview).toMatchObject({ people: 1, skippedCount: 3, ready: false, otherCurrency: "KRW" });
    const won = await read(bytes, "직원.xlsx", { currency: "KRW" });
    expect(won.preview).toMatchObject({ people: 4, skippedCount: 0, ready: true, currency: "KRW" });
    const budgets = parse<{ budget: string }>(won.csv, { columns: true }).map((r) => r.budget);
    expect(budgets).toEqual(["₩50000", "₩30000", "70000원", "45000"]);
  });

  it("reads won from a CP949 CSV as Korean Excel saves one, its won sign the byte of a backslash", async () => {
    const csv = '사번,이름,부서,관심사,예산\nE1,김민준,개발팀,등산,"\\50,000"\nE2,이서연,영업팀,커피,"\\30,000"\n';
    const bytes = encodeText(csv, "cp949");
    const dollars = await read(bytes, "직원.csv", {});
    expect(dollars.preview).toMatchObject({ encoding: "euc-kr", people: 0, ready: false, otherCurrency: "KRW" });
    const won = await read(bytes, "직원.csv", { currency: "KRW" });
    expect(won.preview).toMatchObject({ people: 2, skippedCount: 0, ready: true, currency: "KRW" });
    const budgets = parse<{ budget: string }>(won.csv, { columns: true }).map((r) => r.budget);
    expect(budgets).toEqual(["₩50,000", "₩30,000"]);
  });

  it("leaves a few budgets in another currency as skipped rows, each saying why", async () => {
    const rows = [
      ["이름", "관심사", "예산"],
      ["김민준", "등산", "50000"],
      ["이서연", "커피", "$40"],
      ["박도윤", "독서", "60000"],
    ];
    const { preview } = await read(encodeText(delimited(rows), "utf-8"), "팀.csv", { currency: "KRW" });
    expect(preview).toMatchObject({ people: 2, skippedCount: 1, ready: true, problems: [] });
    expect(preview.skipped).toEqual([{ row: 3, reason: "its budget $40 is in USD, but the job's budget is in KRW" }]);
  });

  it("names the currency the budgets were read in, so the model can say it", async () => {
    const rows = [
      ["이름", "관심사", "예산"],
      ["김민준", "등산", "5만원"],
    ];
    const { preview } = await read(encodeText(delimited(rows), "utf-8"), "팀.csv", { currency: "KRW" });
    expect(previewText(preview).split("\n")[1]).toBe(
      'Columns: name ← "이름", department ← none, interests ← "관심사", budget ← "예산". Budgets read in KRW.',
    );
  });
});
