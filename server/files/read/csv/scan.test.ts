/**
 * The one pass before a job: records across quoted line breaks, blank lines, old Mac line ends,
 * and the header split as csv-parse would read it.
 */
import { parse } from "csv-parse/sync";
import { createPace } from "../pace.js";
import { findHeader, scanRecords, splitRecord } from "./inspect.js";

const limits = { maxRows: 1_000, maxCellsPerRow: 1_000, maxCellChars: 1_000, maxInterestsPerPerson: 1_000 };
const pace = createPace();
const scan = (csv: string, separator: string, interests: number, within = limits) =>
  scanRecords(csv, findHeader(csv)!, separator, interests, within, pace);
const rowsOf = async (csv: string, separator = ",") => (await scan(csv, separator, -1)).rows;

describe("scanRecords", () => {
  it("does not count line breaks inside quotes, escaped quotes included", async () => {
    expect(await rowsOf('h1,h2\n"a\nb",1\n"say ""hi""\r\nthere",2\r\nplain,3')).toBe(3);
  });

  it("counts an unclosed quote as one row to the end", async () => {
    expect(await rowsOf('h\nok\n"open\nx\ny\n')).toBe(2);
  });

  it("reads old Mac line ends; counts blank lines between rows but not after the last", async () => {
    expect(await rowsOf("h\ra\r\rb\r")).toBe(3);
    expect(await rowsOf("h\r\na\r\n \r\n,,\r\nb\r\n\r\n\n  \n")).toBe(4);
    expect(await rowsOf("h\na\n\n\n")).toBe(1);
  });

  it("numbers the rows as csv-parse does, blank lines included, and stops at the first record past a limit", async () => {
    const csv = "\n\nh,i\nA,B\n\nC,D\n";
    expect(findHeader(csv)!.row).toBe(3);
    expect((await scan(csv, ",", 1, { ...limits, maxCellChars: 0 })).breach).toMatchObject({ row: 3 });
    const records = parse(csv, { relax_column_count: true });
    expect(records[5]).toEqual(["C", "D"]); // row 6
    expect((await scan(csv, ",", 1, { ...limits, maxInterestsPerPerson: 0 })).breach).toMatchObject({ row: 4 });
    expect((await scan(csv, ",", 1, { ...limits, maxRows: 2 })).breach).toMatchObject({ row: 6, limit: "rows" });
  });
});

describe("scanRecords across slices", () => {
  it("carries a record's cells and interests over the turns it takes", async () => {
    const wide = Array.from({ length: 300 }, () => "x".repeat(1_000)).join(",");
    const csv = `h,i,${"c,".repeat(297)}last\nA,${wide},a;b;c;d;e;f\nB,${wide},a\n`;
    expect(csv.length).toBeGreaterThan(500_000); // several slices
    const within = { ...limits, maxCellsPerRow: 302, maxInterestsPerPerson: 5 };
    expect((await scan(csv, ",", 301, within)).breach).toEqual({ row: 2, limit: "interests", interests: 6 });
    expect((await scan(csv, ",", 301, { ...within, maxInterestsPerPerson: 6 })).rows).toBe(2);
    expect((await scan(csv, ",", 301, { ...within, maxCellsPerRow: 301 })).breach).toEqual({
      row: 2,
      limit: "cells",
      cells: 302,
    });
  });
});

describe("findHeader", () => {
  it("finds the first line with more than blanks, looking at nothing after its start", () => {
    expect(findHeader("\uFEFF \r\n\t\n\rname,x\n")).toEqual({ start: 7, row: 4 });
    expect(findHeader("  \n\r\n ")).toBeUndefined();
  });
});

describe("splitRecord", () => {
  it.each([
    ['"a","b ""q""",c', ["a", 'b "q"', "c"]],
    ['a"b,"c,d",', ['a"b', "c,d", ""]],
    ["", [""]],
    ["x;y", ["x;y"]],
  ])("splits %j as csv-parse does", (line, cells) => {
    expect(splitRecord(line, 0, line.length, ",")).toEqual(cells);
    expect(parse(line || "\n", { relax_quotes: true, relax_column_count: true })[0] ?? [""]).toEqual(cells);
  });
});
