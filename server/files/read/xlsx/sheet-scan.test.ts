/**
 * The search for rows and merged ranges in the rest of a sheet: the same count and ranges whatever
 * the pieces, with or without a namespace prefix, a tag the parser already took never counted twice.
 */
import { TagScan } from "../xlsx.js";

const XML =
  '<x:row r="1"><x:c r="A1"><x:v>1</x:v></x:c></x:row><row r="2"/><row>' +
  '<c t="inlineStr"><is><t>narrow row &lt;row </t></is></c></row></sheetData>' +
  '<mergeCells count="2"><mergeCell ref="A1:C1"/><x:mergeCell  ref="B2:B9" /></mergeCells>';

describe("TagScan", () => {
  it.each(Array.from({ length: 40 }, (_, i) => i + 1))(
    "finds 3 rows and 2 ranges in pieces of %s characters",
    (size) => {
      const scan = new TagScan();
      scan.taking = true;
      for (let at = 0; at < XML.length; at += size) scan.take(XML.slice(at, at + size));
      scan.end();
      expect({ rows: scan.rows, merges: scan.mergeRefs }).toEqual({ rows: 3, merges: ["A1:C1", "B2:B9"] });
    },
  );

  it("takes over from the parser at a piece's end without counting the parser's tags again", () => {
    for (let cut = 1; cut < XML.length; cut++) {
      const scan = new TagScan();
      scan.take(XML.slice(0, cut)); // parsed: rows closed in it are the parser's
      scan.taking = true;
      scan.take(XML.slice(cut));
      scan.end();
      const parsed = (XML.slice(0, cut).match(/<(x:)?row\b[^>]*>/g) ?? []).length;
      expect(scan.rows + parsed).toBe(3);
    }
  });
});
