/**
 * How a run hands its events to the log: a report that is followed at once by the next one (the
 * job's start and its first stage, a stage's last report and the next stage, the last report and
 * the job's end) goes out in the same append; reports a slice of work apart go out one by one.
 * And what a run writes in its language: picks, skipped rows, the interests it could not place;
 * and its figures by department.
 */
import type { PersonResult } from "../../../shared/tools.js";
import { matchGifts, type MatchGifts } from "../../gifts/matcher.js";
import { decodeChunk } from "../result-codec.js";
import type { EventDraft } from "../state-machine.js";
import type { ResultHead } from "../store.js";
import { testMatch } from "../../../test-kit/jobs/fixtures.js";
import { runBulkAnalysis } from "./bulk-analysis.js";
import { SliceTurns } from "./slice-turns.js";
import { jobTexts, type Locale } from "./texts.js";

const name = (d: EventDraft) => (d.type === "job.progress" ? `${d.payload.stage} ${d.payload.percentage}` : d.type);

async function appendsOf(people: number, slowSteps = false) {
  const appends: string[][] = [];
  // each person a budget of their own, so that no answer is remembered from another
  const employees = Array.from({ length: people }, (_, i) => ({
    name: `P${i}`,
    interests: ["coffee"],
    budget: 20 + i,
  }));
  await runBulkAnalysis({
    jobId: "j",
    input: { occasion: "holiday", budgetPerPerson: 40, employees },
    estimatedRows: people,
    maxRows: 1_000_000,
    match: (request) => {
      // a step slow enough that a stage takes several slices of work
      if (slowSteps) for (const until = performance.now() + 0.05; performance.now() < until;);
      return testMatch(request);
    },
    turns: new SliceTurns(),
    texts: jobTexts("en"),
    signal: new AbortController().signal,
    putChunk: async () => {},
    emit: async (drafts) => void appends.push(drafts.map(name)),
  });
  return appends;
}

describe("runBulkAnalysis", () => {
  it("appends a small job's nine events in five steps, each report with the one that follows it at once", async () => {
    const appends = await appendsOf(3);
    expect(appends.map((a) => a.map((n) => n.split(" ")[0]))).toEqual([
      ["job.started", "parse"],
      ["parse", "extract"],
      ["extract", "match"],
      ["match", "compose"],
      ["job.completed"], // the compose stage's end is 100 %, which job.completed reports
    ]);
  });

  it("sends the reports of a stage that takes several slices as they come, in order", async () => {
    const appends = await appendsOf(1_000, true);
    const matching = appends.filter((a) => a.every((n) => n.startsWith("match")));
    expect(matching.length).toBeGreaterThan(0);
    const percentages = appends.flat().flatMap((n) => (n.startsWith("job.") ? [] : [Number(n.split(" ")[1])]));
    expect(percentages).toEqual([...percentages].sort((a, b) => a - b));
    expect(appends.at(-1)?.at(-1)).toBe("job.completed");
  });
});

describe("the parse stage", () => {
  const columns = {
    name: 0,
    department: -1,
    interests: 1,
    budget: -1,
    id: -1,
    row: -1,
    skip: -1,
    width: 2,
    separator: ";",
    headerRow: 2,
  };
  const run = (csv: string, maxRows = 1_000) => {
    let head: ResultHead | undefined;
    const done = runBulkAnalysis({
      jobId: "j",
      input: { occasion: "holiday", budgetPerPerson: 40, csv },
      columns,
      estimatedRows: 1,
      maxRows,
      match: testMatch,
      turns: new SliceTurns(),
      texts: jobTexts("en"),
      signal: new AbortController().signal,
      putChunk: async () => {},
      emit: async (_drafts, h) => void (head = h ?? head),
    });
    return done.then(() => head);
  };

  it("reads from the header's row with the separator found, and skips repeats and empty rows between others", async () => {
    const head = await run("\nName;Likes\nKim;tea\n\nkim ; TEA\nLee;\n\n\n");
    expect(head).toMatchObject({ total: 2 });
    expect(head?.skipped).toEqual([
      { row: 4, reason: "the row is empty" },
      { row: 5, name: "kim", reason: "it repeats row 3" },
    ]);
  });

  it("fails the job when more rows than the limit turn up once read, trailing blank lines aside", async () => {
    await expect(
      run(`\nName;Likes\n${Array.from({ length: 4 }, (_, i) => `P${i};t`).join("\n")}`, 3),
    ).rejects.toMatchObject({
      code: "too_many_rows",
      message: "The CSV has more than 3 rows.",
    });
    expect(await run(`\nName;Likes\nA;b\nB;c\nC;d\n\n\n\n\n`, 3)).toMatchObject({ total: 3, skipped: [] });
  });
});

describe("a job's words", () => {
  /** Runs the shipped matcher over `employees` in `locale`: the result's head and people. */
  async function analyse(
    locale: Locale,
    employees: { name: string; interests: string[]; department?: string; id?: string }[],
  ) {
    let head: ResultHead | undefined;
    const chunks: string[] = [];
    await runBulkAnalysis({
      jobId: "j",
      input: { occasion: locale === "ko" ? "생일" : "birthday", budgetPerPerson: 60, employees },
      estimatedRows: employees.length,
      maxRows: 1_000,
      match: matchGifts,
      turns: new SliceTurns(),
      texts: jobTexts(locale),
      signal: new AbortController().signal,
      putChunk: async (index, body) => void (chunks[index] = body),
      emit: async (_drafts, h) => void (head = h ?? head),
    });
    const people: PersonResult[] = chunks.flatMap(decodeChunk);
    return { head, people };
  }

  const english = [
    { name: "Kim", interests: ["hiking", "coffee"], department: "Engineering" },
    { name: "Lee", interests: ["magic", "yoga"] },
    { name: "Park", interests: ["Magic", "astrology"] },
    { name: "", interests: ["tea"] },
  ];
  const korean = [
    { name: "김민준", interests: ["등산", "커피"], department: "개발팀" },
    { name: "이서연", interests: ["마술", "요가"] },
    { name: "박지호", interests: ["마술", "점성술"] },
    { name: "", interests: ["차"] },
  ];

  it("picks the same gifts for the same people written in Korean, named and reasoned in Korean", async () => {
    const en = await analyse("en", english);
    const ko = await analyse("ko", korean);
    const ids = (people: PersonResult[]) => people.map((p) => p.gifts.map((g) => g.id));
    expect(ids(ko.people)).toEqual(ids(en.people));
    expect(en.people[0].gifts[0].reason).toMatch(/^Matches their interest in (hiking|coffee)/);
    expect(ko.people[0].gifts[0].reason).toMatch(/^(등산|커피)(을|를|과|와) /);
    expect(ko.people[0].gifts[0].name).toMatch(/[가-힣]/);
    expect(ko.people[0].gifts[0].category).toMatch(/[가-힣]/);
  });

  it("knows employees by their id when given, and otherwise keeps namesakes and skips exact repeats", async () => {
    const kim = { name: "김민준", department: "개발팀" };
    const byId = await analyse("en", [
      { ...kim, interests: ["등산"], id: "1001" },
      { ...kim, interests: ["커피"], id: "1002" },
      { ...kim, interests: ["등산"], id: "1001" },
    ]);
    expect(byId.people.map((p) => p.row)).toEqual([1, 2]);
    expect(byId.head?.skipped).toMatchObject([{ row: 3, reason: 'its ID "1001" repeats row 1' }]);
    const noIds = await analyse("ko", [
      { ...kim, interests: ["등산"] },
      { ...kim, interests: ["커피"] },
      { ...kim, interests: ["등산"] },
    ]);
    expect(noIds.people.map((p) => p.row)).toEqual([1, 2]);
    expect(noIds.head?.skipped).toMatchObject([{ row: 3, reason: "1행과 같은 사람입니다" }]);
  });

  it("says why rows were skipped in the job's language", async () => {
    expect((await analyse("en", english)).head?.skipped).toEqual([{ row: 4, reason: "it has no name" }]);
    expect((await analyse("ko", korean)).head?.skipped).toEqual([{ row: 4, reason: "이름이 없습니다" }]);
  });

  it("counts and names the interests it could not place, the most written first, in the summary and the figures", async () => {
    const en = await analyse("en", english);
    expect(en.head?.figures?.unplaced).toEqual({ count: 2, names: ["magic", "astrology"] });
    expect(en.head?.summary).toContain("; 2 interests we could not place: magic, astrology.");
    const ko = await analyse("ko", korean);
    expect(ko.head?.figures?.unplaced).toEqual({ count: 2, names: ["마술", "점성술"] });
    expect(ko.head?.summary).toContain("; 어떤 관심사인지 알아보지 못한 항목 2개: 마술, 점성술.");
    const placed = await analyse("en", english.slice(0, 1));
    expect(placed.head?.figures).not.toHaveProperty("unplaced");
    expect(placed.head?.summary).not.toContain("could not place");
  });
});

describe("a result's figures by department", () => {
  type Employee = { name: string; interests: string[]; department?: string; budget?: number };
  /** A gift at half the budget, whatever the interests. */
  const halfTheBudget: MatchGifts = ({ budget }) => [
    { id: "half", name: "Half", price: budget / 2, category: "Any", reason: "Half the budget" },
  ];
  /** The figures of a run of `employees` with the small test catalog, or `match`. */
  async function figuresOf(employees: Employee[], match: MatchGifts = testMatch) {
    let head: ResultHead | undefined;
    await runBulkAnalysis({
      jobId: "j",
      input: { occasion: "holiday", budgetPerPerson: 40, employees },
      estimatedRows: employees.length,
      maxRows: 1_000,
      match,
      turns: new SliceTurns(),
      texts: jobTexts("en"),
      signal: new AbortController().signal,
      putChunk: async () => {},
      emit: async (_drafts, h) => void (head = h ?? head),
    });
    return { figures: head?.figures, summary: head?.summary };
  }

  it("sums each department's people, budgets and top picks, the costliest first, none as the empty name", async () => {
    const { figures, summary } = await figuresOf([
      { name: "A", department: "Sales", interests: ["coffee"], budget: 40 }, // beans, 30
      { name: "B", department: "Sales", interests: ["hiking"], budget: 20.004 }, // a novel, 20
      { name: "C", department: "Engineering", interests: ["music"], budget: 45 }, // a record, 40
      { name: "D", interests: ["yoga"], budget: 45 }, // a yoga mat, 45
      { name: "E", department: "Legal", interests: ["tea"], budget: 5 }, // nothing fits
    ]);
    expect(figures?.departments).toEqual([
      { department: "Sales", people: 2, budget: 60, topPicks: 50 },
      { department: "", people: 1, budget: 45, topPicks: 45 },
      { department: "Engineering", people: 1, budget: 45, topPicks: 40 },
      { department: "Legal", people: 1, budget: 5, topPicks: 0 },
    ]);
    expect(figures).toMatchObject({ people: 5, budget: 155, topPicks: 135 });
    // the model's summary names no department
    expect(summary).not.toMatch(/Sales|Engineering|Legal/);
  });

  it("names 39 departments and sums the rest into one last entry, so the entries still add up to the totals", async () => {
    const employees = Array.from({ length: 45 }, (_, i) => ({
      name: `P${i}`,
      department: `D${String(i).padStart(2, "0")}`,
      interests: ["coffee"],
      budget: 10.5 + i, // the top pick, half of it, costs more as the budget grows: D44 first
    }));
    const { figures } = await figuresOf(employees, halfTheBudget);
    const departments = figures?.departments ?? [];
    expect(departments).toHaveLength(40);
    expect(departments.slice(0, 3).map((d) => d.department)).toEqual(["D44", "D43", "D42"]);
    expect(departments.at(-1)).toMatchObject({ department: "…", people: 6 });
    const named = departments.slice(0, -1).map((d) => d.topPicks);
    expect(named).toEqual([...named].sort((a, b) => b - a));
    expect(departments.at(-1)?.topPicks).toBeCloseTo(
      [5.25, 5.75, 6.25, 6.75, 7.25, 7.75].reduce((a, b) => a + b),
      2,
    );
    const sum = (key: "people" | "budget" | "topPicks") => departments.reduce((s, d) => s + d[key], 0);
    expect(sum("people")).toBe(figures?.people);
    expect(sum("budget")).toBeCloseTo(figures!.budget, 2);
    expect(sum("topPicks")).toBeCloseTo(figures!.topPicks, 2);
  });
});
