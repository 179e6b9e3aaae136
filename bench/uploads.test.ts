/**
 * Smoke test of the uploads benchmark: on tiny files, every upload really ends complete (the
 * section throws otherwise) and its rows are well formed. The figures are not looked at.
 */
import { benchUploads } from "./uploads.js";

it("uploads: every file sent whole through the tools, four well-formed rows", async () => {
  const rows = await benchUploads({ quick: true, smoke: true });
  expect(rows.map((r) => [r.section, r.unit])).toEqual([
    ["uploads", "MB/s"],
    ["uploads", "MB"],
    ["uploads", "MB"],
    ["uploads", "MB"],
  ]);
  for (const r of rows) {
    expect(Number.isFinite(r.value)).toBe(true);
    expect(r.baseline !== null && Number.isFinite(r.baseline)).toBe(true);
  }
});
