/**
 * Reading records in slices with csv-parse: quotes, commas and line breaks inside fields, CRLF,
 * a BOM, any Unicode; the same records whatever the slice size; unreadable rows kept in place.
 */
import fc from "fast-check";
import { readCsvBatches, type CsvReadOptions } from "./reader.js";

async function readAll(csv: string, slice?: number, options: CsvReadOptions = {}) {
  const records: string[][] = [];
  const rows: number[] = [];
  const unreadable: { row: number; reason: string }[] = [];
  for await (const batch of readCsvBatches(csv, { sliceChars: slice, ...options }))
    for (const r of batch) {
      if ("reason" in r) unreadable.push(r);
      else {
        records.push(r.cells);
        rows.push(r.row);
      }
    }
  return { records, rows, unreadable };
}

const TRICKY = [
  "\uFEFFname,department,interests,budget",
  '"Smith, Jane","R&D","coffee; ""dark"" roast",30',
  '"Line\r\nBreak",Sales,"a|b",',
  "李小龍,工程,茶,20",
  "Ólafur 🎉 Arnalds,Music,vinyl,",
  "",
  'bare"quote,x,y,1',
].join("\r\n");

describe("readCsvBatches", () => {
  it("reads awkward records with the row numbers a spreadsheet shows", async () => {
    const { records, rows, unreadable } = await readAll(TRICKY);
    expect(records).toEqual([
      ["Smith, Jane", "R&D", 'coffee; "dark" roast', "30"],
      ["Line\r\nBreak", "Sales", "a|b", ""],
      ["李小龍", "工程", "茶", "20"],
      ["Ólafur 🎉 Arnalds", "Music", "vinyl", ""],
      [""],
      ['bare"quote', "x", "y", "1"],
    ]);
    expect(rows).toEqual([2, 3, 4, 5, 6, 7]);
    expect(unreadable).toEqual([]);
  });

  it("reads the same whatever the slice size, even through multi-byte characters", async () => {
    const whole = await readAll(TRICKY);
    for (const slice of [1, 2, 3, 5, 7, 64]) expect(await readAll(TRICKY, slice)).toEqual(whole);
    // an emoji is two UTF-16 units: no slice may split it
    const emoji = "name,department,interests\n🎉🎉🎉,🎉,x🎉\n";
    for (const slice of [1, 2, 3, 4, 27, 28])
      expect((await readAll(emoji, slice)).records).toEqual([["🎉🎉🎉", "🎉", "x🎉"]]);
  });

  it("reports an unclosed quote as an unreadable row in its place", async () => {
    const { rows, unreadable } = await readAll('name,department,interests\nA,B,C\n"Open,B,C\nD,E,F\n', 4);
    expect(rows).toEqual([2]);
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0].row).toBe(3);
    expect(unreadable[0].reason).toContain("never closed");
  });

  it("reads with another separator, from a later header, or every record", async () => {
    const tsv = '\n\nname\tinterests\n"a\tb"\tc;d\nx\ty\n';
    expect(await readAll(tsv, 5, { separator: "\t", from: 3 })).toMatchObject({
      records: [
        ["a\tb", "c;d"],
        ["x", "y"],
      ],
      rows: [4, 5],
    });
    expect((await readAll("h\na\n", 64, { from: 0 })).rows).toEqual([1, 2]);
  });

  it("round-trips any table that is written with quotes", async () => {
    const cell = fc.string({ unit: "grapheme", maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 50 }),
        async (table, slice) => {
          const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
          const csv = ["name,department,interests", ...table.map((r) => r.map(quote).join(","))].join("\r\n");
          const { records, rows } = await readAll(csv, slice);
          expect(records).toEqual(table);
          expect(rows).toEqual(table.map((_, i) => i + 2));
        },
      ),
      { numRuns: 100 },
    );
  });
});
