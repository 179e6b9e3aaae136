/**
 * Zip bombs shaped as .xlsx, built byte by byte: a sheet of zeros that unpacks to hundreds of MB is
 * refused from its directory without unpacking; one whose directory lies is stopped as it unpacks,
 * the memory never holding more than the bound; an honest workbook's parts stream as they unpack.
 */
import { resolveLimits } from "../../../limits.js";
import { craftedXlsx, staffXlsx, zipBombXlsx } from "../../../../test-kit/staff-files.js";
import { Refused } from "../grid-row.js";
import { readStaffFile } from "../staff-file.js";
import { openWorkbook, type WorkbookZip } from "./unzip.js";
import { READ_LIMITS } from "./read-limits.js";

const MB = 1024 * 1024;
const SHEET = "xl/worksheets/sheet1.xml";

/** Streams part `name` to its end: its length, or the refusal that stopped it. */
async function drain(zip: WorkbookZip, name: string) {
  let length = 0;
  try {
    for await (const piece of zip.stream(name)) length += piece.length;
    return { ok: true as const, length };
  } catch (error) {
    if (error instanceof Refused) return error.outcome;
    throw error;
  }
}

async function open(bytes: Uint8Array, limits = READ_LIMITS) {
  const zip = await openWorkbook(bytes, limits);
  if (!zip.ok) throw new Error(zip.error.message);
  return zip.value;
}

describe("openWorkbook", () => {
  it("refuses a workbook of more parts than a spreadsheet has, from its directory", async () => {
    const bytes = await staffXlsx([["name"], ["Ann"]]);
    const r = await openWorkbook(bytes, { ...READ_LIMITS, maxEntries: 3 });
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: "unreadable_file",
        message: expect.stringMatching(/^The workbook holds \d+ parts; a spreadsheet has tens\./),
      },
    });
    expect((await openWorkbook(bytes)).ok).toBe(true);
  });

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
    const zip = await open(zipBombXlsx(150), { ...READ_LIMITS, maxRatio: 10_000 });
    expect(zip.check([SHEET])).toMatchObject({
      ok: false,
      error: { message: "The workbook would unpack to 150.0 MB; at most 100.0 MB is read." },
    });
  });

  it("stops a sheet whose directory says 40 MB as soon as it unpacks past that, though it holds 400 MB", async () => {
    const zip = await open(zipBombXlsx(400, { declaredBytes: 40 * MB }), { ...READ_LIMITS, maxRatio: 10_000 });
    const before = process.memoryUsage().rss;
    expect(await drain(zip, SHEET)).toMatchObject({
      ok: false,
      error: {
        code: "input_too_large",
        message: expect.stringContaining("unpacks larger than the workbook says (more than the 40.0 MB it declares)"),
      },
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * MB);
  });

  it("stops at its own bound a part that keeps within what its directory claims", async () => {
    const honest = await open(zipBombXlsx(60), { ...READ_LIMITS, maxRatio: 10_000, maxUnpackedBytes: 200 * MB });
    expect(await drain(honest, SHEET)).toEqual({ ok: true, length: 60 * MB });
    const lying = zipBombXlsx(60, { declaredBytes: 10 * MB });
    const tight = await open(lying, { ...READ_LIMITS, maxRatio: 10_000, maxUnpackedBytes: 20 * MB });
    expect(await drain(tight, SHEET)).toMatchObject({ ok: false, error: { code: "input_too_large" } });
  });

  it("streams a real workbook's parts", async () => {
    const zip = await open(await staffXlsx([["name"]], { after: ["B", "C"] }));
    for (const part of ["xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/worksheets/sheet3.xml"]) {
      expect(zip.has(part)).toBe(true);
      expect(await drain(zip, part)).toMatchObject({ ok: true, length: expect.any(Number) });
    }
  });

  it("says what to do with a zip that is no workbook, and with a broken one", async () => {
    const notXlsx = await openWorkbook(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    expect(notXlsx).toMatchObject({
      ok: false,
      error: { code: "unreadable_file", hint: expect.stringContaining(".xlsx") },
    });
  });

  it("echoes at most a short piece of a part's very long name", async () => {
    const part = `${"x".repeat(60_000)}.xml`;
    const bomb = craftedXlsx([{ name: "Staff", xml: Buffer.alloc(5 * MB), part }]);
    const r = await readStaffFile(bomb, "long.xlsx", {}, resolveLimits());
    expect(r).toMatchObject({
      ok: false,
      error: { code: "input_too_large", message: expect.stringContaining("xxx…") },
    });
    expect(JSON.stringify(r).length).toBeLessThan(2_000);
  });
});
