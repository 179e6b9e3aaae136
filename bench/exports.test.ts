/**
 * Smoke test of the files-out benchmark: on a tiny job, both files are really written and read
 * through, and the rows are well formed. The figures mean nothing at this size.
 */
import { benchExports } from "./exports.js";

it("exports: a finished job written as CSV and .xlsx gives five well-formed rows", async () => {
  const rows = await benchExports({ quick: true, smoke: true });
  expect(rows.map((r) => r.section)).toEqual(Array(5).fill("exports"));
  for (const r of rows) {
    expect(Number.isFinite(r.value)).toBe(true);
    expect(r.value).toBeGreaterThanOrEqual(0);
    expect(r.baseline === null || Number.isFinite(r.baseline)).toBe(true);
  }
  expect(new Set(rows.map((r) => r.metric)).size).toBe(5);
});
