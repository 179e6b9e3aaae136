/**
 * A Korean staff workbook written by another program (SheetJS), its budgets typed every way Korean
 * sheets type them, some as text and some as numbers: the preview reads it in won (3,000 people,
 * no row skipped), and the job on its input gives every person gifts within their budget in won.
 * A budget in dollars in a won job is a skipped row that says so, in the preview and the job alike.
 */
import * as XLSX from "xlsx";
import { CATALOG } from "../../gifts/catalog.js";
import { matchGifts } from "../../gifts/matcher.js";
import { resolveLimits } from "../../limits.js";
import { runToResult } from "../../../test-kit/jobs/service-reads.js";
import { readStaffFile } from "./staff-file.js";

const limits = resolveLimits();
const byId = new Map(CATALOG.map((item) => [item.id, item]));

/** Budget cells as a Korean sheet holds them: text as typed, or a number cell. */
const BUDGETS: [cell: string | number, won: number][] = [
  ["5만원", 50_000],
  ["5만 원", 50_000],
  ["50,000원", 50_000],
  ["₩50,000", 50_000],
  ["￦45,000", 45_000],
  ["3만5천원", 35_000],
  [70_000, 70_000],
  ["10만", 100_000],
  ["50,000 KRW", 50_000],
  ["2만 5천 원", 25_000],
];
const INTERESTS = ["등산, 커피", "독서", "요가;차", "캠핑", "보드게임", "사진", "요리", "음악"];

function workbook(rows: number, extra: (string | number)[][] = []): Uint8Array {
  const aoa: (string | number)[][] = [["이름", "부서", "관심사", "예산"]];
  for (let i = 0; i < rows; i++)
    aoa.push([
      `김민준${i}`,
      ["개발팀", "영업팀", "인사팀"][i % 3],
      INTERESTS[i % INTERESTS.length],
      BUDGETS[i % 10][0],
    ]);
  aoa.push(...extra);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(aoa), "직원");
  return XLSX.write(book, { type: "buffer", bookType: "xlsx", bookSST: true }) as Uint8Array;
}

/** The job run in won on the canonical CSV, as a Korean person starts it: its people and skipped rows. */
async function runJob(csv: string) {
  const input = { csv, occasion: "연말", budgetPerPerson: 50_000, currency: "KRW" as const, locale: "ko-KR" };
  const { head, people, skipped } = await runToResult(input, { match: matchGifts, start: { locale: "ko" } });
  expect(head.currency).toBe("KRW");
  return { people, skipped };
}

describe("a Korean workbook's budgets in won", () => {
  it("reads 3,000 people in won, and the job keeps every pick within their budget", async () => {
    const read = await readStaffFile(workbook(3_000), "직원.xlsx", { currency: "KRW" }, limits);
    if (!read.ok) throw new Error(read.error.message);
    const { preview, csv } = read.value;
    expect(preview).toMatchObject({ currency: "KRW", people: 3_000, skippedCount: 0, ready: true });
    const { people, skipped } = await runJob(csv);
    expect(skipped).toEqual([]);
    expect(people).toHaveLength(3_000);
    for (const [i, p] of people.entries()) {
      expect(p.budget).toBe(BUDGETS[i % 10][1]);
      expect(p.gifts.length).toBeGreaterThan(0);
      for (const gift of p.gifts) {
        expect(gift.price).toBeLessThanOrEqual(p.budget);
        expect(gift.price).toBe(byId.get(gift.id)?.prices.KRW);
        expect(gift.reason).toContain("₩");
      }
    }
  });

  it("skips a budget in dollars, saying so, in the preview and the job alike", async () => {
    const bytes = workbook(3, [["이도윤", "개발팀", "독서", "$40"]]);
    const read = await readStaffFile(bytes, "직원.xlsx", { currency: "KRW" }, limits);
    if (!read.ok) throw new Error(read.error.message);
    const reason = "its budget $40 is in USD, but the job's budget is in KRW";
    expect(read.value.preview).toMatchObject({ people: 3, skipped: [{ row: 5, reason }] });
    const { skipped } = await runJob(read.value.csv);
    expect(skipped).toEqual([
      {
        row: 5,
        name: "이도윤",
        department: "개발팀",
        reason: "예산 $40은(는) USD 금액인데, 이 작업의 예산 통화는 KRW입니다",
      },
    ]);
  });

  it("reads the same budgets as dollars in a dollar job only where no currency is named", async () => {
    const read = await readStaffFile(workbook(10), "직원.xlsx", {}, limits);
    if (!read.ok) throw new Error(read.error.message);
    // 70000 and "10만" name no currency; every other cell names won, which a dollar job does not take
    expect(read.value.preview).toMatchObject({ currency: "USD", people: 2, skippedCount: 8 });
  });
});
