/**
 * A job's words name its occasion once: an occasion that already ends in the gift word ("연말 감사
 * 선물", "Holiday gifts") is not given a second one in the title, the start or the summary.
 */
import { jobTexts } from "./texts.js";

const figures = { people: 3, withGifts: 3, skipped: 0, topPicks: 90_000, budget: 150_000, currency: "KRW" as const };

describe("the occasion in a job's words", () => {
  it.each([
    ["연말 감사 선물", "연말 감사"],
    ["연말 감사선물", "연말 감사"],
    ["설날", "설날"],
    ["선물", "선물"],
  ])("says 선물 once for %j", (occasion, bare) => {
    const ko = jobTexts("ko");
    expect(ko.title(occasion, "3,000")).toBe(`3,000행 명단의 ${bare} 선물`);
    expect(ko.started(occasion, "3,000")).toBe(`${bare} 선물을 위해 3,000행 명단을 읽는 중`);
    expect(ko.summary({ occasion, ...figures })).toMatch(new RegExp(`^3명 중 3명의 ${bare} 선물을 찾았습니다`));
  });

  it.each([
    ["Holiday gifts", "Holiday"],
    ["Year-end Gift", "Year-end"],
    ["Farewell", "Farewell"],
  ])("says gifts once for %j", (occasion, bare) => {
    const en = jobTexts("en");
    expect(en.title(occasion, "12")).toBe(`${bare} gifts from a list of 12 rows`);
    expect(en.started(occasion, "1")).toBe(`Reading a list of 1 row for ${bare} gifts`);
    expect(en.summary({ occasion, ...figures })).toMatch(new RegExp(`^Found ${bare} gift ideas for 3 of 3 people`));
  });
});
