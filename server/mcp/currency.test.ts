/**
 * Money in won from end to end, over real HTTP with the official MCP client: suggest_gifts and a
 * bulk job whose currency the person's locale decides, a Korean CSV whose budgets are written as
 * Korean sheets write them (5만원, 50,000원, ₩50,000, ￦45,000, 3만5천원), a cell in dollars skipped
 * saying so, every pick within its budget in won, reasons and summaries in ₩, and the exports read
 * back by another library (SheetJS): Korean headers and sheet names, the currency in the CSV
 * header, won's number format on every money cell of the .xlsx.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import * as XLSX from "xlsx";
import { ExportOutput, FILE_TOOL, type ExportResult } from "../../shared/files.js";
import {
  GetJobResultOutput,
  SuggestGiftsOutput,
  TOOL,
  WaitForJobOutput,
  type GetJobResultResult,
} from "../../shared/tools.js";
import { HOBBIES } from "../../test-kit/employee-csv.js";
import { CATALOG } from "../gifts/catalog.js";
import { callTool, startJob, toolText, useTestClient } from "../../test-kit/servers/test-server.js";

const t = useTestClient();
const byId = new Map(CATALOG.map((item) => [item.id, item]));

/** Budgets as Korean sheets write them, and what each is in won. */
const WON: [written: string, amount: number][] = [
  ["5만원", 50_000],
  ["5만 원", 50_000],
  ["50,000원", 50_000],
  ["50,000 원", 50_000],
  ["₩50,000", 50_000],
  ["￦45,000", 45_000],
  ["3만5천원", 35_000],
  ["50000", 50_000],
  ["KRW 80,000", 80_000],
  ["12만원", 120_000],
];
const DEPARTMENTS = ["개발팀", "영업팀", "인사팀", "고객지원팀", "디자인팀"];

/** A Korean staff list of `rows` people, budgets in the forms above, each quoted where it holds a comma. */
function koreanCsv(rows: number): string {
  const lines = ["이름,부서,관심사,예산"];
  for (let i = 0; i < rows; i++) {
    const [written] = WON[i % WON.length];
    const interests = `${HOBBIES[i % HOBBIES.length]};${HOBBIES[(i * 7 + 3) % HOBBIES.length]}`;
    lines.push(`김민준${i},${DEPARTMENTS[i % DEPARTMENTS.length]},${interests},"${written}"`);
  }
  return `${lines.join("\n")}\n`;
}

async function finished(client: Client, jobId: string) {
  const waited = WaitForJobOutput.parse(
    (await callTool(client, TOOL.waitForJob, { jobId, timeoutMs: 60_000 })).structuredContent,
  );
  expect(waited.status).toBe("completed");
  expect(waited.view.currency).toBe("KRW");
  const pages: GetJobResultResult[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = GetJobResultOutput.parse(
      (await callTool(client, TOOL.getJobResult, { jobId, offset, limit: 500 })).structuredContent,
    );
    pages.push(page);
    offset = page.nextOffset;
  }
  return { pages, people: pages.flatMap((p) => p.people), skipped: pages.flatMap((p) => p.skipped) };
}

async function exported(client: Client, args: Record<string, unknown>): Promise<{ out: ExportResult; bytes: Buffer }> {
  const result = await callTool(client, FILE_TOOL.exportResult, { ...args, inline: true });
  if (result.isError) throw new Error(toolText(result));
  const out = ExportOutput.parse(result.structuredContent);
  return { out, bytes: Buffer.from(out.data ?? "", "base64") };
}

describe("the tools' contract", () => {
  it("takes a currency in both tools, names no single currency for budgets, and lists the catalog's prices per currency", async () => {
    const { tools } = await t.client.listTools();
    for (const name of [TOOL.suggestGifts, TOOL.startBulk]) {
      const tool = tools.find((x) => x.name === name);
      expect(JSON.stringify(tool)).not.toMatch(/US dollars/);
      expect(tool?.inputSchema.properties?.currency).toMatchObject({ enum: ["USD", "KRW", "EUR", "JPY", "GBP"] });
    }
    const { contents } = await t.client.readResource({ uri: "gifts://catalog" });
    const catalog = JSON.parse("text" in contents[0] ? contents[0].text : "{}") as {
      currencies: string[];
      items: { prices: Record<string, number> }[];
    };
    expect(catalog.currencies).toEqual(["USD", "KRW", "EUR", "JPY", "GBP"]);
    expect(catalog.items[0].prices).toEqual(CATALOG[0].prices);
  });
});

describe("suggest_gifts in won", () => {
  it("takes the currency from a Korean locale: prices in won within the budget, reasons in ₩", async () => {
    const result = await callTool(t.client, TOOL.suggestGifts, {
      occasion: "생일",
      budget: 80_000,
      recipient: "등산과 커피를 좋아하는 동료",
      locale: "ko-KR",
    });
    const answer = SuggestGiftsOutput.parse(result.structuredContent);
    expect(answer.currency).toBe("KRW");
    expect(answer.gifts.length).toBeGreaterThan(0);
    for (const gift of answer.gifts) {
      expect(gift.price).toBeLessThanOrEqual(80_000);
      expect(gift.price).toBe(byId.get(gift.id)?.prices.KRW);
      expect(gift.reason).toMatch(/예산 ₩80,000 중 ₩[\d,]+입니다\.$/);
    }
    expect(toolText(result)).toContain("within ₩80,000");
  });

  it("takes a currency given over the locale's, and says a budget too small in it", async () => {
    const english = SuggestGiftsOutput.parse(
      (await callTool(t.client, TOOL.suggestGifts, { occasion: "birthday", budget: 60_000, currency: "KRW" }))
        .structuredContent,
    );
    expect(english.currency).toBe("KRW");
    expect(english.gifts[0].reason).toMatch(/of the ₩60,000 budget\.$/);
    const dollars = SuggestGiftsOutput.parse(
      (await callTool(t.client, TOOL.suggestGifts, { occasion: "생일", budget: 60, locale: "ko-KR", currency: "USD" }))
        .structuredContent,
    );
    expect(dollars.currency).toBe("USD");
    expect(dollars.gifts[0].reason).toMatch(/예산 \$60 중 \$\d+입니다\.$/);
    const tiny = await callTool(t.client, TOOL.suggestGifts, { occasion: "생일", budget: 3000, locale: "ko-KR" });
    expect(tiny.isError).toBe(true);
    expect(toolText(tiny)).toContain("The cheapest gift costs ₩6,500");
  });
});

describe("a Korean staff list in won", () => {
  it("refuses a budget per person that buys nothing in won, before a file is asked for, and says why", async () => {
    const csv = koreanCsv(3);
    // 50 meant as dollars, read as ₩50 for a person whose language is Korean
    for (const list of [{ csv }, {}]) {
      const refused = await callTool(t.client, TOOL.startBulk, {
        ...list,
        occasion: "연말",
        budgetPerPerson: 50,
        locale: "ko-KR",
      });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ error: { code: "no_gift_fits" } });
      expect(toolText(refused)).toContain("The budget per person, ₩50, buys no gift: the cheapest costs ₩6,500.");
      expect(toolText(refused)).toContain("Budgets are in KRW, the currency of the person's language.");
    }
    // the same number named as dollars starts (a list whose budgets name no currency: won would not start in dollars)
    const dollars = await callTool(t.client, TOOL.startBulk, {
      csv: "이름,부서,관심사\n김민준,개발팀,커피\n",
      occasion: "연말",
      budgetPerPerson: 50,
      locale: "ko-KR",
      currency: "USD",
    });
    expect(dollars.isError).toBeFalsy();
    // no locale and no currency: dollars, which no language chose
    const tiny = await callTool(t.client, TOOL.startBulk, { csv, occasion: "farewell", budgetPerPerson: 1 });
    expect(toolText(tiny)).toContain("The budget per person, $1, buys no gift: the cheapest costs $5.");
    expect(toolText(tiny)).not.toContain("the currency of the person's language");
  });

  it("reads 3,000 people with budgets written every Korean way, all in won and within budget", async () => {
    const rows = 3_000;
    const started = await startJob(t.client, {
      csv: koreanCsv(rows),
      occasion: "연말",
      budgetPerPerson: 50_000,
      locale: "ko-KR",
    });
    expect(started.currency).toBe("KRW");
    const { pages, people, skipped } = await finished(t.client, started.jobId);
    expect(skipped).toEqual([]);
    expect(people).toHaveLength(rows);
    for (const [i, p] of people.entries()) {
      expect(p.budget).toBe(WON[i % WON.length][1]);
      expect(p.gifts.length).toBeGreaterThan(0);
      for (const gift of p.gifts) {
        expect(gift.price).toBeLessThanOrEqual(p.budget);
        expect(gift.price).toBe(byId.get(gift.id)?.prices.KRW);
        expect(gift.reason).toContain(`예산 ₩${p.budget.toLocaleString("en-US")} 중 ₩`);
      }
    }
    expect(pages[0]).toMatchObject({ currency: "KRW", figures: { currency: "KRW", people: rows, withGifts: rows } });
    const sum = people.reduce((s, p) => s + p.gifts[0].price, 0);
    expect(pages[0].summary).toContain(`1순위 선물의 합계는 ₩${sum.toLocaleString("en-US")}입니다`);
  });

  it("does not start a CSV whose budgets are mostly in another currency than the job's, and starts it in theirs", async () => {
    const args = { csv: koreanCsv(20), occasion: "holiday", budgetPerPerson: 50, locale: "en-US" };
    const refused = await callTool(t.client, TOOL.startBulk, args);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: { code: "invalid_csv" } });
    expect(toolText(refused)).toBe(
      "staff.csv cannot start an analysis yet: Most of the file's budgets are written in KRW (18 rows), but the job's budget is in USD, so those rows would be skipped. " +
        'Read the file in KRW (reading: { currency: "KRW" }) and start the job in KRW, or write those budgets in USD. ' +
        'Start it again with currency "KRW" and the budget per person in it.',
    );
    const started = await startJob(t.client, { ...args, budgetPerPerson: 50_000, currency: "KRW" });
    const { people, skipped } = await finished(t.client, started.jobId);
    expect([people.length, skipped]).toEqual([20, []]);
  });

  it("skips a budget in another currency than the job's, saying which, and exports in Korean with won's format", async () => {
    const csv = [
      "이름,부서,관심사,예산",
      '박서연,영업팀,커피;등산,"50,000원"',
      "이도윤,개발팀,보드게임,$40",
      "최지우,인사팀,요리,3만5천원",
      ",디자인팀,영화,5만원",
    ].join("\n");
    const started = await startJob(t.client, { csv, occasion: "추석", budgetPerPerson: 50_000, locale: "ko-KR" });
    const { people, skipped } = await finished(t.client, started.jobId);
    expect(people.map((p) => [p.name, p.budget])).toEqual([
      ["박서연", 50_000],
      ["최지우", 35_000],
    ]);
    expect(skipped).toEqual([
      {
        row: 3,
        name: "이도윤",
        department: "개발팀",
        reason: "예산 $40은(는) USD 금액인데, 이 작업의 예산 통화는 KRW입니다",
      },
      { row: 5, department: "디자인팀", reason: "이름이 없습니다" },
    ]);

    // the picks as CSV: Korean headers, the currency in them, the amounts as numbers
    const picksCsv = await exported(t.client, { jobId: started.jobId });
    expect([...picksCsv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8, said to Excel
    // Excel takes the BOM as the encoding's mark; SheetJS reading text leaves it to the reader
    const csvBook = XLSX.read(picksCsv.bytes.subarray(3).toString("utf8"), { type: "string" });
    const csvRows = XLSX.utils.sheet_to_json<unknown[]>(csvBook.Sheets[csvBook.SheetNames[0]], { header: 1 });
    expect(csvRows[0]).toEqual([
      "행",
      "이름",
      "부서",
      "관심사",
      "예산 (KRW)",
      ...[1, 2, 3].flatMap((n) => [`선물 ${n}`, `선물 ${n} 가격 (KRW)`, `선물 ${n} 분류`, `선물 ${n} 추천 이유`]),
    ]);
    expect(csvRows[1].slice(0, 6)).toEqual([2, "박서연", "영업팀", "커피; 등산", 50_000, people[0].gifts[0].name]);

    // the picks as .xlsx: the same cells, the sheet named in Korean, won's format on every amount
    const picks = await exported(t.client, { jobId: started.jobId, format: "xlsx" });
    const book = XLSX.read(picks.bytes, { type: "buffer", cellNF: true });
    expect(book.SheetNames).toEqual(["선물 추천"]);
    const sheet = book.Sheets["선물 추천"];
    const values = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, defval: "" });
    expect(values[0]).toEqual(csvRows[0]);
    for (const [k, p] of people.entries()) {
      const row = values[k + 1];
      expect(row.slice(0, 5)).toEqual([p.row, p.name, p.department, p.interests.join("; "), p.budget]);
      for (const [g, gift] of p.gifts.entries()) {
        expect(row.slice(5 + 4 * g, 9 + 4 * g)).toEqual([gift.name, gift.price, gift.category, gift.reason]);
      }
      for (const column of ["E", "G", ...(p.gifts.length > 1 ? ["K"] : [])]) {
        const cell = sheet[`${column}${k + 2}`] as XLSX.CellObject;
        expect(cell.t).toBe("n");
        expect(cell.z).toBe('"₩"#,##0');
        expect(cell.w).toBe(`₩${Number(cell.v).toLocaleString("en-US")}`);
      }
    }

    // the skipped rows: the row, the name, the department and why, under Korean headers
    const ledger = await exported(t.client, { jobId: started.jobId, part: "skipped", format: "xlsx" });
    const ledgerBook = XLSX.read(ledger.bytes, { type: "buffer" });
    expect(ledgerBook.SheetNames).toEqual(["건너뛴 행"]);
    expect(XLSX.utils.sheet_to_json<unknown[]>(ledgerBook.Sheets["건너뛴 행"], { header: 1, defval: "" })).toEqual([
      ["행", "이름", "부서", "건너뛴 이유"],
      [3, "이도윤", "개발팀", "예산 $40은(는) USD 금액인데, 이 작업의 예산 통화는 KRW입니다"],
      [5, "", "디자인팀", "이름이 없습니다"],
    ]);
    const ledgerCsv = await exported(t.client, { jobId: started.jobId, part: "skipped" });
    expect(ledgerCsv.bytes.toString("utf8")).toBe(
      '\uFEFF행,이름,부서,건너뛴 이유\r\n3,이도윤,개발팀,"예산 $40은(는) USD 금액인데, 이 작업의 예산 통화는 KRW입니다"\r\n5,,디자인팀,이름이 없습니다\r\n',
    );
  });
});
