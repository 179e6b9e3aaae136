/**
 * A read's budget, whatever the file: shared strings past their count or characters refused
 * before they fill the memory (a bomb of two million tiny strings among them), and no temporary
 * file anywhere after reads that end well, are refused, fail, or are stopped early by a limit.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as XLSX from "xlsx";
import { resolveLimits } from "../../../limits.js";
import { craftedXlsx, sharedStringsBombXlsx, worksheetXml } from "../../../../test-kit/staff-files.js";
import { readGrid } from "../../../../test-kit/workbooks/read-sheets.js";
import { readStaffFile } from "../staff-file.js";
import { READ_LIMITS } from "./read-limits.js";

describe("a read's budget", () => {
  it("refuses two million shared strings as they stream, before holding them all", async () => {
    const r = await readStaffFile(sharedStringsBombXlsx(2_000_000, false), "bomb.xlsx", {}, resolveLimits());
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: "input_too_large",
        message:
          "The workbook holds more than 1,000,000 strings of shared text; a read takes at most 1,000,000 strings.",
      },
    });
  });

  it("refuses shared strings from their declared count, and past their characters", async () => {
    const r = await readStaffFile(sharedStringsBombXlsx(1_000_001, true), "bomb.xlsx", {}, resolveLimits());
    expect(r).toMatchObject({
      ok: false,
      error: { code: "input_too_large", message: expect.stringContaining("1,000,001 strings") },
    });
    await expect(
      readGrid(sharedStringsBombXlsx(1_000, false), undefined, { ...READ_LIMITS, maxSharedChars: 500 }),
    ).rejects.toThrow(
      "input_too_large: The workbook holds more than 500 characters of shared text; a read takes at most 500 characters.",
    );
  });

  it("leaves no file in the temporary folder after reads that succeed, fail, are refused or stop early", async () => {
    const folder = mkdtempSync(join(tmpdir(), "gg-read-"));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = folder; // where any library asking os.tmpdir() would spool
    try {
      expect(tmpdir()).toBe(folder);
      // no sharedStrings.xml: strings kept in the sheet (SheetJS), or inline (openpyxl)
      const rows = [["이름", "관심사"], ...Array.from({ length: 20_000 }, (_, i) => [`김민준${i}`, "커피"])];
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), "직원");
      const sheetJs = new Uint8Array(XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
      const openpyxl = new Uint8Array(
        readFileSync(new URL("../../../../test-kit/workbooks/openpyxl-staff.xlsx", import.meta.url)),
      );
      const limits = resolveLimits();
      expect(await readStaffFile(sheetJs, "a.xlsx", {}, limits)).toMatchObject({ ok: true });
      expect(await readStaffFile(openpyxl, "b.xlsx", {}, limits)).toMatchObject({ ok: true });
      const stopped = await readStaffFile(sheetJs, "a.xlsx", {}, { ...limits, maxRows: 100 });
      expect(stopped).toMatchObject({ ok: false, error: { code: "too_many_rows" } });
      const broken = craftedXlsx([{ name: "x", xml: worksheetXml("<row><c><v>1</c></row>") }]);
      expect(await readStaffFile(broken, "c.xlsx", {}, limits)).toMatchObject({
        ok: false,
        error: { code: "unreadable_file" },
      });
      expect(await readStaffFile(sharedStringsBombXlsx(1_100_000, false), "d.xlsx", {}, limits)).toMatchObject({
        ok: false,
      });
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
