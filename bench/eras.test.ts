/**
 * Smoke test of the eras benchmark: each of the three framings (no session, a session, the
 * 2026-07-28 envelope) really answers gifts under load (the section throws otherwise), and the rows
 * are well formed. The figures mean nothing at this size.
 */
import { benchEras } from "./eras.js";

it("eras: all three framings answer gifts, seven well-formed rows", async () => {
  const rows = await benchEras({ quick: true, smoke: true });
  expect(rows.map((r) => [r.section, r.unit])).toEqual([
    ["eras", "req/s"],
    ["eras", "ms"],
    ["eras", "req/s"],
    ["eras", "ms"],
    ["eras", "req/s"],
    ["eras", "ms"],
    ["eras", ""],
  ]);
  for (const r of rows) expect(Number.isFinite(r.value)).toBe(true);
  expect(rows.slice(2, 6).every((r) => r.baseline !== null && Number.isFinite(r.ratio))).toBe(true);
  expect(rows[4]).toMatchObject({ metric: "suggest_gifts req/s, 2026-07-28", target: "≥ 1× legacy stateless" });
  expect(typeof rows[4].met).toBe("boolean");
  expect(rows[6]).toMatchObject({ metric: "bad answers, all three", value: 0, met: true });
  expect(new Set(rows.map((r) => r.metric)).size).toBe(7);
});
