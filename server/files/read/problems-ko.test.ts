/**
 * Every problem the reader writes has its Korean: each one preview-text.ts can produce, made from the
 * facts that produce it, re-worded with no English sentence left and the figures, headers and sheet
 * names kept.
 */
import { COLUMN_KEYS, type ColumnMap } from "../../../shared/files.js";
import { matchHeaders } from "./headers.js";
import { koreanProblem, problemsOf, type ProblemFacts } from "./preview-text.js";

const NONE: ColumnMap = { name: -1, department: -1, interests: -1, budget: -1, id: -1 };
const workbook: ProblemFacts["source"] = {
  format: "xlsx",
  encoding: null,
  encodingCertain: true,
  sheets: [
    { name: "안내", rows: 1, hidden: false },
    { name: "직원", rows: 31, hidden: true },
  ],
  sheet: "안내",
};

/** One reading's facts for each problem preview-text.ts words. */
const FACTS: [string, ProblemFacts][] = [
  [
    "an encoding guessed",
    {
      source: { ...workbook, format: "csv", encoding: "windows-1252", encodingCertain: false, sheets: [], sheet: null },
      headers: ["name", "interests"],
      mapping: matchHeaders(["name", "interests"]),
      rows: 3,
      people: 3,
    },
  ],
  ["no rows at all", { source: workbook, headers: [], mapping: undefined, rows: 0, people: 0 }],
  [
    "every required column missing, on a workbook of two sheets",
    { source: workbook, headers: ["notes"], mapping: matchHeaders(["notes"]), rows: 2, people: 0 },
  ],
  [
    "two columns for the name, none under the header",
    {
      source: { ...workbook, sheets: [], sheet: null },
      headers: ["Name", "name", "interests"],
      mapping: matchHeaders(["Name", "name", "interests"]),
      rows: 0,
      people: 0,
    },
  ],
  [
    "rows of which none is a person",
    {
      source: { ...workbook, sheets: [], sheet: null },
      headers: ["이름", "관심사"],
      mapping: { columns: { ...NONE, name: 0, interests: 1 }, missing: [], twice: [] },
      rows: 1_234,
      people: 0,
    },
  ],
  [
    "budgets mostly in another currency than the job's",
    {
      source: { ...workbook, sheets: [], sheet: null },
      headers: ["이름", "관심사", "예산"],
      mapping: { columns: { ...NONE, name: 0, interests: 1, budget: 2 }, missing: [], twice: [] },
      rows: 3,
      people: 1,
      otherCurrency: { currency: "KRW", count: 2, job: "USD" },
    },
  ],
];

describe("koreanProblem", () => {
  it.each(FACTS)("words every problem of %s in Korean", (_name, facts) => {
    const problems = problemsOf(facts);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      const korean = koreanProblem(problem);
      expect(korean, problem).not.toBe(problem);
      expect(korean).toMatch(/[가-힣]/);
      // no English sentence is left: only the headers, names and codes it quotes
      expect(korean.replace(/"[^"]*"|\([^)]*\)|UTF-\d+|EUC-KR|CP949|Windows-1252|Excel/g, "")).not.toMatch(
        /[a-z]{4,}/i,
      );
    }
  });

  it("keeps the figures, the headers and the sheets a problem names", () => {
    const [missing, , sheets] = problemsOf(FACTS[2][1]).map(koreanProblem);
    expect(missing).toMatch(/^이름 열이 없습니다\. 머리글은 "notes"입니다\./);
    expect(sheets).toBe(
      '이 통합 문서의 시트는 "안내"(1행), "직원"(31행, 숨김)입니다. "안내" 시트를 읽었습니다. 다른 시트를 고르면 그 시트를 읽습니다.',
    );
    expect(koreanProblem(problemsOf(FACTS[4][1])[0])).toBe(
      "1,234개 행 중 사람으로 읽을 수 있는 행이 없습니다. 건너뛴 행에 이유가 있습니다.",
    );
  });

  it("leaves a problem it does not know as it is", () => {
    expect(koreanProblem("Something new.")).toBe("Something new.");
  });

  it("has a Korean name for every column a problem can name", () => {
    for (const key of COLUMN_KEYS) {
      const mapping = { columns: NONE, missing: [key], twice: [key] };
      const facts = { ...FACTS[4][1], mapping, rows: 0 };
      const [missing, twice] = problemsOf(facts).map(koreanProblem);
      expect(missing, key).toMatch(/^[가-힣]+ 열이 없습니다\./);
      expect(twice, key).toMatch(/^[가-힣]+ 열이 될 수 있는 열이 여러 개라/);
    }
  });
});
