/**
 * The .xlsx writer on its own: the exceljs internal it paces deflate by is still where it reads it,
 * a reader that leaves early stops the writing (and the reading of the store), a failing source
 * fails the file, and a cell longer than Excel keeps is cut to its limit.
 */
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import type { Cell } from "./xlsx.js";
import { unzipped, xlsxFile } from "./xlsx.js";

const OPTIONS = { sheetName: "Picks", created: new Date(0) };

async function* rows(batches: number, onEnd: () => void = () => {}): AsyncGenerator<Cell[][]> {
  try {
    for (let b = 0; b < batches; b++)
      yield Array.from({ length: 1000 }, (_, i) => [b * 1000 + i, `Person ${b * 1000 + i}`, "some words of a reason"]);
  } finally {
    onEnd();
  }
}

async function bytesOf(file: AsyncGenerator<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of file) parts.push(part);
  return Buffer.concat(parts);
}

describe("xlsxFile", () => {
  it("finds the sheet XML exceljs has not yet deflated, which it paces the writing by", () => {
    const out = new PassThrough().resume();
    const sheet = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out }).addWorksheet("s");
    for (let i = 0; i < 5_000; i++) sheet.addRow([i, `a row long enough to fill the zip's buffer ${i}`]).commit();
    // written in one go, faster than deflate: the XML waits, and the writer must see it
    expect(unzipped(sheet)).toBeGreaterThan(64 * 1024);
    out.destroy();
  });

  it("stops writing and closes its source when the reader leaves early", async () => {
    let closed = false;
    const file = xlsxFile(
      ["row", "name", "reason"],
      rows(100, () => (closed = true)),
      OPTIONS,
    );
    for await (const part of file) {
      expect(part.byteLength).toBeGreaterThan(0);
      break;
    }
    await vi.waitFor(() => expect(closed).toBe(true));
  });

  it("fails with its source's error", async () => {
    async function* failing(): AsyncGenerator<Cell[][]> {
      yield* rows(2);
      throw new Error("the store went away");
    }
    await expect(bytesOf(xlsxFile(["row"], failing(), OPTIONS))).rejects.toThrow("the store went away");
  });

  it("cuts a cell to the 32,767 characters Excel keeps, and leaves empty cells out", async () => {
    async function* one(): AsyncGenerator<Cell[][]> {
      yield [[1, "x".repeat(40_000), ""]];
    }
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array(await bytesOf(xlsxFile(["row", "long", "empty"], one(), OPTIONS))).buffer);
    const row = book.worksheets[0].getRow(2);
    expect(row.getCell(2).text).toHaveLength(32_767);
    expect(row.getCell(3).type).toBe(ExcelJS.ValueType.Null);
    expect(book.worksheets[0].name).toBe("Picks");
  });
});
