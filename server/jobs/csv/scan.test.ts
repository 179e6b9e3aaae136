/**
 * The one pass before a job: records across quoted line breaks, blank lines, old Mac line ends,
 * and the header split as csv-parse would read it.
 */
import { parse } from "csv-parse/sync";
import { findHeader, scanRecords, splitRecord } from "./scan.js";

const limits = { maxCellsPerRow: 1_000, maxCellChars: 1_000, maxInterestsPerPerson: 1_000 };
const rowsOf = (csv: string, separator = ",") =>
  scanRecords(csv, findHeader(csv, separator)!, separator, -1, limits).rows;

describe("scanRecords", () => {
  it("does not count line breaks inside quotes, escaped quotes included", () => {
    expect(rowsOf('h1,h2\n"a\nb",1\n"say ""hi""\r\nthere",2\r\nplain,3')).toBe(3);
  });

  it("counts an unclosed quote as one row to the end", () => {
    expect(rowsOf('h\nok\n"open\nx\ny\n')).toBe(2);
  });

  it("reads old Mac line ends; counts blank lines between rows but not after the last", () => {
    expect(rowsOf("h\ra\r\rb\r")).toBe(3);
    expect(rowsOf("h\r\na\r\n \r\n,,\r\nb\r\n\r\n\n  \n")).toBe(4);
    expect(rowsOf("h\na\n\n\n")).toBe(1);
  });

  it("numbers the rows as csv-parse does, blank lines included", () => {
    const csv = "\n\nh,i\nA,B\n\nC,D\n";
    const header = findHeader(csv, ",")!;
    expect(header.row).toBe(3);
    const breach = scanRecords(csv, header, ",", 1, { ...limits, maxCellChars: 0 }).breach;
    expect(breach).toMatchObject({ row: 3 });
    const records = parse(csv, { relax_column_count: true }) as string[][];
    expect(records[5]).toEqual(["C", "D"]); // row 6
    expect(scanRecords(csv, header, ",", 1, { ...limits, maxInterestsPerPerson: 0 }).breach).toMatchObject({ row: 4 });
  });
});

describe("splitRecord", () => {
  it.each([
    ['"a","b ""q""",c', ["a", 'b "q"', "c"]],
    ['a"b,"c,d",', ['a"b', "c,d", ""]],
    ["", [""]],
    ["x;y", ["x;y"]],
  ])("splits %j as csv-parse does", (line, cells) => {
    expect(splitRecord(line, { start: 0, end: line.length, row: 1 }, ",")).toEqual(cells);
    expect((parse(line || "\n", { relax_quotes: true, relax_column_count: true }) as string[][])[0] ?? [""]).toEqual(
      cells,
    );
  });
});
