/**
 * Zip bombs shaped as .xlsx, built byte by byte: a sheet of zeros that unpacks to hundreds of MB is
 * refused from its directory without unpacking; one whose directory lies is stopped as it unpacks,
 * the memory never holding more than the bound; an honest workbook unpacks in the reader's order.
 */
import { resolveLimits } from "../../jobs/limits.js";
import { staffXlsx, zipBombXlsx } from "../../../test-kit/staff-files.js";
import { readStaffFile } from "./staff-file.js";
import { unpackWorkbook, ZIP_LIMITS } from "./unzip.js";

const MB = 1024 * 1024;

describe("unpackWorkbook", () => {
  it("refuses a sheet that unpacks to 400 MB from its directory, before unpacking a byte", async () => {
    const bomb = zipBombXlsx(400);
    expect(bomb.length).toBeLessThan(1 * MB);
    const before = process.memoryUsage().rss;
    const r = await readStaffFile(bomb, "bomb.xlsx", {}, resolveLimits());
    expect(r).toMatchObject({
      ok: false,
      error: { code: "input_too_large", message: expect.stringMatching(/would unpack \d+ times larger .*400\.0 MB/) },
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * MB);
  });

  it("refuses a workbook whose parts add up past the bound, each packed loosely enough", async () => {
    const bomb = zipBombXlsx(150);
    const r = await unpackWorkbook(bomb, { ...ZIP_LIMITS, maxRatio: 10_000 });
    expect(r).toMatchObject({
      ok: false,
      error: { message: "The workbook would unpack to 150.0 MB; at most 100.0 MB is read." },
    });
  });

  it("stops a sheet whose directory says 40 MB as soon as it unpacks past that, though it holds 400 MB", async () => {
    const bomb = zipBombXlsx(400, { declaredBytes: 40 * MB });
    const before = process.memoryUsage().rss;
    const r = await unpackWorkbook(bomb, { ...ZIP_LIMITS, maxRatio: 10_000 });
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: "input_too_large",
        message: expect.stringContaining("unpacks larger than the workbook says (more than the 40.0 MB it declares)"),
      },
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * MB);
  });

  it("stops at its own bound a part that keeps within what its directory claims", async () => {
    const bomb = zipBombXlsx(60);
    const r = await unpackWorkbook(bomb, { ...ZIP_LIMITS, maxRatio: 10_000, maxUnpackedBytes: 200 * MB });
    expect(r.ok).toBe(true); // honest and under the bound: unpacked
    const lying = zipBombXlsx(60, { declaredBytes: 10 * MB });
    const tight = await unpackWorkbook(lying, { ...ZIP_LIMITS, maxRatio: 10_000, maxUnpackedBytes: 20 * MB });
    expect(tight).toMatchObject({ ok: false, error: { code: "input_too_large" } });
  });

  it("unpacks a real workbook's parts, workbook first and sheets by number", async () => {
    const r = await unpackWorkbook(await staffXlsx([["name"]], { after: ["B", "C"] }));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.map((p) => p.name)).toEqual([
      "xl/workbook.xml",
      "xl/_rels/workbook.xml.rels",
      "xl/styles.xml",
      "xl/sharedStrings.xml",
      "xl/worksheets/sheet1.xml",
      "xl/worksheets/sheet2.xml",
      "xl/worksheets/sheet3.xml",
    ]);
  });

  it("says what to do with a zip that is no workbook, and with a broken one", async () => {
    const notXlsx = await unpackWorkbook(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    expect(notXlsx).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments", hint: expect.stringContaining(".xlsx") },
    });
  });
});
