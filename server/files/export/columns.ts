/**
 * What a file out holds, whatever its format: the picks (one row per person, with up to three
 * gifts spelled out as name, price, category and reason) or the skipped rows (the row, the name
 * and department it held, and why), with headers and sheet names in the job's language and the
 * currency named in the money columns' headers ("budget (KRW)"). The CSV and .xlsx writers both
 * write these rows, so the two formats never differ.
 */
import type { SkippedRow } from "../../../shared/files.js";
import type { Currency } from "../../../shared/money.js";
import type { Language } from "../../../shared/stage-words.js";
import type { PersonResult } from "../../../shared/tools.js";

/** A cell: text, or a number a spreadsheet can add up (budgets and prices, in the job's currency). */
export type Cell = string | number;

/** Gifts per person the picks have columns for: what the analysis picks for each person. */
const GIFT_COLUMNS = 3;

/** The words of a file's headers and sheets, in English and in Korean. */
const EN = {
  row: "row",
  name: "name",
  department: "department",
  interests: "interests",
  budget: (c: Currency) => `budget (${c})`,
  gift: (n: number) => `gift ${n}`,
  price: (n: number, c: Currency) => `gift ${n} price (${c})`,
  category: (n: number) => `gift ${n} category`,
  reason: (n: number) => `gift ${n} reason`,
  why: "reason",
  sheets: { picks: "Picks", skipped: "Skipped rows" },
};

const WORDS: Record<Language, typeof EN> = {
  en: EN,
  ko: {
    row: "행",
    name: "이름",
    department: "부서",
    interests: "관심사",
    budget: (c) => `예산 (${c})`,
    gift: (n) => `선물 ${n}`,
    price: (n, c) => `선물 ${n} 가격 (${c})`,
    category: (n) => `선물 ${n} 분류`,
    reason: (n) => `선물 ${n} 추천 이유`,
    why: "건너뛴 이유",
    sheets: { picks: "선물 추천", skipped: "건너뛴 행" },
  },
};

/** The picks' header: row, name, department, interests, budget, then name, price, category, reason per gift. */
export function picksHeader(language: Language, currency: Currency): string[] {
  const w = WORDS[language];
  const gifts = Array.from({ length: GIFT_COLUMNS }, (_, i) => [
    w.gift(i + 1),
    w.price(i + 1, currency),
    w.category(i + 1),
    w.reason(i + 1),
  ]);
  return [w.row, w.name, w.department, w.interests, w.budget(currency), ...gifts.flat()];
}

/** The columns of the picks that hold money (0-based): the budget and each gift's price. */
export const PICKS_MONEY_COLUMNS: readonly number[] = [4, ...Array.from({ length: GIFT_COLUMNS }, (_, i) => 6 + 4 * i)];

export const skippedHeader = (language: Language): string[] => {
  const w = WORDS[language];
  return [w.row, w.name, w.department, w.why];
};

export const sheetNames = (language: Language) => WORDS[language].sheets;

/** One person's row; a person with fewer gifts (none fitted the budget) has empty gift cells. */
export function pickCells(p: PersonResult): Cell[] {
  const cells: Cell[] = [p.row, p.name, p.department ?? "", p.interests.join("; "), p.budget];
  for (let i = 0; i < GIFT_COLUMNS; i++) {
    const g = p.gifts[i];
    cells.push(...(g ? [g.name, g.price, g.category, g.reason] : ["", "", "", ""]));
  }
  return cells;
}

export const skippedCells = (s: SkippedRow): Cell[] => [s.row, s.name ?? "", s.department ?? "", s.reason];

/**
 * A spreadsheet's number format for amounts in each currency: the sign, grouped digits, and the
 * currency's minor unit (none for won and yen), so that Excel shows "₩50,000" and "$40.00".
 */
export const MONEY_FORMATS: Record<Currency, string> = {
  KRW: '"₩"#,##0',
  USD: '"$"#,##0.00',
  EUR: '"€"#,##0.00',
  JPY: '"¥"#,##0',
  GBP: '"£"#,##0.00',
};
