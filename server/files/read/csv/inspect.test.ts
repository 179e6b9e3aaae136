/**
 * The look before a job exists: limits, the separator, the header (synonyms in English and Korean,
 * case, spaces, BOM, quotes, blank lines above it) and the row count, with quoted line breaks not
 * counted as rows.
 */
import { inspectCsv } from "./inspect.js";

const limits = {
  maxCsvBytes: 1024 * 1024,
  maxRows: 100,
  maxCellsPerRow: 20,
  maxCellChars: 200,
  maxInterestsPerPerson: 5,
};
const plain = { id: -1, row: -1, skip: -1, separator: ",", headerRow: 1 };

describe("inspectCsv", () => {
  it("finds the columns whatever their case, spacing and order, and counts the rows, an empty one between them too", async () => {
    const r = await inspectCsv(
      "\uFEFF Budget ,INTERESTS, name ,Department,notes\r\n10,a,b,c,d\r\n\r\n20,a,b,c,d\r\n",
      limits,
    );
    expect(r).toEqual({
      ok: true,
      value: { columns: { budget: 0, interests: 1, name: 2, department: 3, width: 5, ...plain }, rows: 3 },
    });
  });

  it.each([
    ["이름,부서,관심사,예산\n김민준,영업,커피,30\n", ",", { name: 0, department: 1, interests: 2, budget: 3 }],
    ["Full name;Team;Hobbies\nAda;Eng;books\n", ";", { name: 0, department: 1, interests: 2, budget: -1 }],
    ["성명\t팀\t취미\t금액\nA\tB\tC\t5\n", "\t", { name: 0, department: 1, interests: 2, budget: 3 }],
    ["Employee|Likes|Gift budget ($)\nA|tea;coffee|5\n", "|", { name: 0, department: -1, interests: 1, budget: 2 }],
  ])("reads %j through synonyms and its separator", async (csv, separator, columns) => {
    expect(await inspectCsv(csv, limits)).toMatchObject({
      ok: true,
      value: { columns: { ...columns, separator }, rows: 1 },
    });
  });

  it("makes budget and department optional", async () => {
    const r = await inspectCsv("name,interests\nA,C", limits);
    expect(r).toMatchObject({ ok: true, value: { columns: { budget: -1, department: -1, width: 2 }, rows: 1 } });
  });

  it("takes the first line with text as the header, and knows its row", async () => {
    const r = await inspectCsv("\n  \r\nname,interests\nA,C\n", limits);
    expect(r).toMatchObject({ ok: true, value: { columns: { headerRow: 3 }, rows: 1 } });
  });

  it("finds a staff file's row and skip columns", async () => {
    const r = await inspectCsv("row,name,department,interests,budget,skip\n7,A,,tea,,\n", limits);
    expect(r).toMatchObject({ ok: true, value: { columns: { row: 0, name: 1, skip: 5, width: 6 } } });
  });

  it("reads a quoted header", async () => {
    expect(await inspectCsv('"name","department","interests"\nA,B,C\n', limits)).toMatchObject({
      ok: true,
      value: { rows: 1 },
    });
  });

  it.each([
    ["", "The CSV is empty."],
    ["\uFEFF", "The CSV is empty."],
    [" \r\n\n", "The CSV is empty."],
    ["name,department,interests\n\n\r\n", "The CSV has a header but no employee rows."],
    ["name,department\nA,B\n", 'The CSV has no "interests" column: its header has "name", "department".'],
    [",,\nA,B,C\n", 'The CSV has no "name" or "interests" column: its header is empty.'],
    ["name,department,interests,Name\nA,B,C,D\n", 'The CSV has two "name" columns.'],
  ])("refuses %j: %s", async (csv, message) => {
    const r = await inspectCsv(csv, limits);
    expect(r).toMatchObject({ ok: false, error: { code: "invalid_csv", message } });
    if (!r.ok) expect(r.error.hint).toMatch(message.includes("column:") ? /"이름"/ : /\w+ \w+/);
  });

  it("refuses a file over the size limit, counting UTF-8 bytes", async () => {
    const csv = `name,department,interests\n${"é".repeat(150)},x,y\n`.repeat(4);
    expect(await inspectCsv(csv, { ...limits, maxCsvBytes: 1_000 })).toMatchObject({
      ok: false,
      error: { code: "input_too_large", message: "The CSV is 2 KB; the limit is 1 KB." },
    });
    const big = `name,department,interests\n${"x".repeat(9 * 1024 * 1024)},b,c\n`;
    expect(await inspectCsv(big, { ...limits, maxCsvBytes: 8 * 1024 * 1024 })).toMatchObject({
      error: {
        message: "The CSV is 9.0 MB; the limit is 8.0 MB.",
        hint: "Split the list into smaller files and start one analysis for each.",
      },
    });
  });

  it("refuses more rows than the limit", async () => {
    const csv = `name,department,interests\n${"a,b,c\n".repeat(101)}`;
    expect(await inspectCsv(csv, limits)).toMatchObject({
      ok: false,
      error: { code: "too_many_rows", message: "The CSV has more than 100 rows; one analysis takes at most 100." },
    });
    expect((await inspectCsv(`name,department,interests\n${"a,b,c\n".repeat(100)}`, limits)).ok).toBe(true);
  });

  it.each([
    [
      "a cell too long",
      `name,interests\nA,${"x".repeat(201)}\n`,
      "Row 2 has a cell of more than 200 characters; a cell may hold at most 200.",
    ],
    [
      "a header of one huge line",
      `name,interests,${"x".repeat(5000)}`,
      "Row 1 has a cell of more than 200 characters; a cell may hold at most 200.",
    ],
    ["too many cells", `name,interests\nA,B${",".repeat(25)}\n`, "Row 2 has 27 cells; a row may have at most 20."],
    [
      "too many interests",
      "name,interests\nA,B\nC,a;b|c;d;e;f\n",
      "Row 3 lists 6 interests; one person may have at most 5.",
    ],
    [
      "an unclosed quote",
      `name,interests\nA,"B\n${"C,D\n".repeat(60)}`,
      "Row 2 has a cell of more than 200 characters; a cell may hold at most 200.",
    ],
  ])("refuses %s, naming the row", async (_name, csv, message) => {
    expect(await inspectCsv(csv, limits)).toMatchObject({ ok: false, error: { code: "input_too_large", message } });
  });

  it("counts interests as a person wrote them, empty items aside", async () => {
    expect((await inspectCsv("name,interests\nA, a ;; b|c | ;d;e;\n", limits)).ok).toBe(true);
  });
});
