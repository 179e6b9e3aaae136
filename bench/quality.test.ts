/**
 * The quality goals, checked on the labelled set as `npm run bench` measures them: good picks in
 * Korean as in English, never over budget, varied within a department, and the twelve recipients
 * of the suggest_gifts comparison served in both languages (before: 11 of 12 in English, none in
 * Korean). The "quality" section's rows are well formed too.
 */
import { benchQuality, measureQuality } from "./quality.js";

const share = ({ met, of }: { met: number; of: number }) => (100 * met) / of;

describe("the matcher's quality on the labelled set", () => {
  const en = measureQuality("en");
  const ko = measureQuality("ko");

  it("fits the interests of at least 95 % of people in each language, Korean within 2 points of English", () => {
    expect(en.fit.of).toBeGreaterThanOrEqual(95);
    expect(share(en.fit)).toBeGreaterThanOrEqual(95);
    expect(share(ko.fit)).toBeGreaterThanOrEqual(95);
    expect(share(en.fit) - share(ko.fit)).toBeLessThanOrEqual(2);
  });

  it("serves the twelve suggest_gifts recipients in English and in Korean alike", () => {
    expect(en.recipients).toEqual({ met: 12, of: 12 });
    expect(ko.recipients).toEqual({ met: 12, of: 12 });
  });

  it("never picks over budget, and gives no gift off interest to more than 20 % of a department", () => {
    for (const figures of [en, ko]) {
      expect(figures.overBudget).toBe(0);
      expect(figures.variety.share).toBeLessThanOrEqual(0.2);
    }
  });

  it("places every interest it places in English in Korean too", () => {
    expect(ko.placed).toEqual(en.placed);
  });

  it("gives the section's rows, each goal met", async () => {
    const rows = await benchQuality({ quick: true, smoke: true });
    expect(rows).toHaveLength(13);
    for (const r of rows) expect(r.section).toBe("quality");
    // the speed row compares timings of one run: its ratio is not a test's business
    expect(rows.filter((r) => r.met === false && !r.metric.startsWith("matches/s"))).toEqual([]);
  });
});
