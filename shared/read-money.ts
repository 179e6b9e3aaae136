/** An amount as people write it ("50,000원", "5만 원", "1.234,50 €"); apart from money.ts, for the widget's size. */
import { oncePer } from "./format.js";
import { CURRENCIES, roundMoney, type Currency } from "./money.js";

/** Lower case, no spaces, after NFKC ("￦" → "₩"). "CA$" or "A$" are no currency here: refused, never misread. */
const NAMES: Record<Currency, string> = {
  KRW: "₩ 원 krw won southkoreanwon koreanwon 대한민국원 한국원 韓国ウォン ウォン 韩元",
  USD: "$ us$ $us usd dollar dollars usdollar usdollars 달러 미국달러 米ドル 美元",
  EUR: "€ eur euro euros 유로 ユーロ 欧元",
  JPY: "¥ jp¥ jpy yen japaneseyen 엔 엔화 일본엔화 円 日元",
  GBP: "£ £gb gbp pound pounds britishpound britishpounds poundsterling 영국파운드 英国ポンド",
};
const CURRENCY_OF = new Map(CURRENCIES.flatMap((c) => NAMES[c].split(" ").map((name) => [name, c] as const)));

const PLAIN = /^\s*(\d+(?:\.\d{1,2})?)\s*$/;

export type ReadMoney = { amount: number; currency: Currency | undefined };

// "1,234.50" / "1.234,50" / "1 234,50" / "12,34,567" / "1'234.50": digits, groups, a decimal part
const NUMBER = String.raw`(?:\d|[.,]\d)[\d.,' ’]*`;
// the number first (with Korean or Japanese units: "3만5천", "5万"), or the currency first
const AMOUNT = new RegExp(
  String.raw`^([^\d.,]*?)\s*((?:${NUMBER}|[만천억백万千億])(?:[\d.,' ’만천억백万千億]|\s(?=[\d만천억백万千億]))*)\s*([^\d]*)$`,
);

/** Undefined for no amount (two currencies, an unknown one, odd grouping); won and yen decimals rounded away. */
export function readMoney(text: string): Readonly<ReadMoney> | undefined {
  // most cells are plain numbers ("50", "49.99"): read at once, as a job reads 200,000 of them
  const plain = PLAIN.exec(text);
  return plain === null ? readWritten(text) : { amount: Number(plain[1]), currency: undefined };
}

/** A list has a handful of budgets written some other way: each read once, the last thousand kept. */
const readWritten = oncePer(readAmount, 1000);

function readAmount(text: string): Readonly<ReadMoney> | undefined {
  const s = (/^[\x20-\x7e]*$/.test(text) ? text : text.normalize("NFKC")).replace(/\s+/g, " ").trim();
  const [, before, digits, after] = AMOUNT.exec(s) ?? [];
  if (digits === undefined) return undefined;
  const named = [before, after].map((t) => t.replace(/\s/g, "").toLowerCase()).filter((t) => t !== "");
  const currency = named.length === 1 ? CURRENCY_OF.get(named[0]) : undefined;
  if (named.length > 1 || (named.length === 1 && currency === undefined)) return undefined;
  const amount = /[만천억백万千億]/.test(digits) ? readUnits(digits) : readNumber(digits.trim());
  if (amount === undefined || !Number.isFinite(amount)) return undefined;
  return Object.freeze({ amount: currency === undefined ? amount : roundMoney(amount, currency), currency });
}

/** "3만5천" → 35,000, "1억 2천만" → 120,000,000, "만" → 10,000: 억 and 만 groups, each of 천 and 백 and digits. */
function readUnits(text: string): number | undefined {
  let rest = text.replace(/\s/g, "");
  let total = 0;
  for (const [unit, size] of [
    [/[억億]/, 1e8],
    [/[만万]/, 1e4],
  ] as const) {
    const at = rest.search(unit);
    if (at === -1) continue;
    const n = at === 0 ? 1 : readGroup(rest.slice(0, at));
    if (n === undefined) return undefined;
    total += n * size;
    rest = rest.slice(at + 1);
  }
  const n = readGroup(rest);
  return n === undefined ? undefined : total + n;
}

/** "5천", "2천5백", "3천500", "12": a number below the next 만, each of 천 and 백 once, largest first. */
function readGroup(text: string): number | undefined {
  const parts = text.split(/([천千백])/);
  let total = 0;
  let last = Infinity;
  for (let i = 0; i < parts.length; i += 2) {
    const unit = parts[i + 1];
    const n = parts[i] === "" ? (unit === undefined ? 0 : 1) : readNumber(parts[i]);
    if (n === undefined) return undefined;
    if (unit === undefined) return total + n;
    const size = unit === "백" ? 100 : 1000;
    if (!(size < last)) return undefined;
    last = size;
    total += n * size;
  }
  return total;
}

/** Digits grouped by each separator: 1 to 3 digits, groups of 2 or 3 (India's lakh), 3 last. */
const GROUPED: Record<string, RegExp> = Object.fromEntries(
  [",", ".", "'", " "].map((g) => [g, new RegExp(String.raw`^\d{1,3}(?:[${g}]\d{2,3})*[${g}]\d{3}$`)]),
);

/** "1.234,50", "12,34,567", "40,50": one or two digits at the end are decimals; one other separator groups. */
function readNumber(text: string): number | undefined {
  const s = text.replace(/’/g, "'").replace(/(\d)\.$/, "$1"); // "12." is 12
  if (/^\d+$/.test(s)) return Number(s);
  const [, whole = s, mark, fraction = ""] = /^(.*?)([.,])(\d{1,2})$/.exec(s) ?? [];
  if (whole === "" && mark) return Number(`0.${fraction}`);
  if (!/^\d+$/.test(whole)) {
    const group = /^\d{1,3}([.,' ])\d/.exec(whole)?.[1];
    if (group === undefined || group === mark || whole.startsWith("0") || !GROUPED[group].test(whole)) return undefined;
  }
  // what GROUPED let through holds digits and its one separator only
  const digits = whole.replace(/[.,' ]/g, "");
  return Number(fraction === "" ? digits : `${digits}.${fraction}`);
}
