/**
 * The look before a job exists: limits, the header (case, spaces, BOM, quotes) and the row count,
 * with quoted line breaks not counted as rows.
 */
import { inspectCsv, scanRecords } from "./inspect.js";

const limits = { maxCsvBytes: 1024 * 1024, maxRows: 100 };

describe("inspectCsv", () => {
  it("finds the columns whatever their case, spacing and order, and counts the rows", () => {
    const r = inspectCsv(
      "\uFEFF Budget ,INTERESTS, name ,Department,notes\r\n10,a,b,c,d\r\n\r\n20,a,b,c,d\r\n",
      limits,
    );
    expect(r).toEqual({
      ok: true,
      value: { columns: { budget: 0, interests: 1, name: 2, department: 3, width: 5 }, rows: 2 },
    });
  });

  it("makes budget optional", () => {
    const r = inspectCsv("name,department,interests\nA,B,C", limits);
    expect(r).toMatchObject({ ok: true, value: { columns: { budget: -1, width: 3 }, rows: 1 } });
  });

  it("reads a quoted header", () => {
    expect(inspectCsv('"name","department","interests"\nA,B,C\n', limits)).toMatchObject({
      ok: true,
      value: { rows: 1 },
    });
  });

  it.each([
    ["", "The CSV is empty."],
    ["\uFEFF", "The CSV is empty."],
    [" \r\n\n", "The CSV is empty."],
    ["name,department,interests\n\n\r\n", "The CSV has a header but no employee rows."],
    ["name,interests\nA,B\n", 'The CSV has no "department" column: its header has "name", "interests".'],
    [",,\nA,B,C\n", 'The CSV has no "name" or "department" or "interests" column: its header is empty.'],
    ["name,department,interests,Name\nA,B,C,D\n", 'The CSV has two "name" columns.'],
  ])("refuses %j: %s", (csv, message) => {
    const r = inspectCsv(csv, limits);
    expect(r).toMatchObject({ ok: false, error: { code: "invalid_csv", message } });
    if (!r.ok) expect(r.error.hint).toBeTruthy();
  });

  it("refuses a file over the size limit, counting UTF-8 bytes", () => {
    const csv = `name,department,interests\n${"é".repeat(600)},x,y\n`;
    expect(inspectCsv(csv, { ...limits, maxCsvBytes: 1_000 })).toMatchObject({
      ok: false,
      error: { code: "input_too_large", message: "The CSV is 2 KB; the limit is 1 KB." },
    });
    expect(inspectCsv(csv, { ...limits, maxCsvBytes: 2_000 }).ok).toBe(true);
    const big = `name,department,interests\n${"x".repeat(9 * 1024 * 1024)},b,c\n`;
    expect(inspectCsv(big, { ...limits, maxCsvBytes: 8 * 1024 * 1024 })).toMatchObject({
      error: {
        message: "The CSV is 9.0 MB; the limit is 8.0 MB.",
        hint: "Split the list into smaller files and start one analysis for each.",
      },
    });
  });

  it("refuses more rows than the limit", () => {
    const csv = `name,department,interests\n${"a,b,c\n".repeat(101)}`;
    expect(inspectCsv(csv, limits)).toMatchObject({
      ok: false,
      error: { code: "too_many_rows", message: "The CSV has 101 rows; one analysis takes at most 100." },
    });
    expect(inspectCsv(`name,department,interests\n${"a,b,c\n".repeat(100)}`, limits).ok).toBe(true);
  });
});

describe("scanRecords", () => {
  it("does not count line breaks inside quotes, escaped quotes included", () => {
    const csv = 'h1,h2\n"a\nb",1\n"say ""hi""\r\nthere",2\r\nplain,3';
    expect(scanRecords(csv)).toEqual({ headerEnd: 5, rows: 3 });
  });

  it("counts an unclosed quote as one row to the end", () => {
    expect(scanRecords('h\nok\n"open\nx\ny\n').rows).toBe(2);
  });

  it("reads old Mac line ends", () => {
    expect(scanRecords("h\ra\rb\r")).toEqual({ headerEnd: 1, rows: 2 });
  });
});
