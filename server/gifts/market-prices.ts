/**
 * A gift's price in each market, fixed when the catalog is built: the US price times the market's
 * price level, rounded to local price points; no exchange rate (docs/money-and-languages.md).
 */
import { CURRENCIES, type Currency } from "../../shared/money.js";

/** What a $1 US gift sells for in each market (what the same shelf costs there); reviewed by hand with the catalog. */
export const PRICE_LEVEL: Record<Currency, number> = { USD: 1, KRW: 1300, EUR: 0.95, JPY: 150, GBP: 0.8 };

/** Whole units under 50, then to the nearest 5: "$5", "$28", "$45", "$75" (as US shops price). */
function fives(raw: number): number {
  return raw < 50 ? Math.max(1, Math.round(raw)) : Math.round(raw / 5) * 5;
}

/**
 * Won: under ₩10,000 the nearest ₩…500 or ₩…900 (₩6,500, ₩8,900); under ₩100,000 the nearest
 * ₩1,000 (₩39,000, ₩45,000); above, the nearest ₩10,000 less ₩1,000 (₩129,000, ₩199,000), and
 * ₩109,000 at least, so a dearer gift never costs less than a cheaper one.
 */
function won(raw: number): number {
  if (raw < 10_000) {
    const k = Math.floor(raw / 1000) * 1000;
    const points = [k - 100, k + 500, k + 900, k + 1500].filter((p) => p > 0);
    return points.reduce((a, b) => (Math.abs(b - raw) < Math.abs(a - raw) ? b : a));
  }
  if (raw < 100_000) return Math.round(raw / 1000) * 1000;
  return Math.max(109_000, Math.round((raw + 1000) / 10_000) * 10_000 - 1000);
}

/** Yen: under ¥10,000 the nearest ¥…480 or ¥…980 (¥980, ¥2,980); above, the nearest ¥1,000. */
function yen(raw: number): number {
  if (raw < 10_000) return Math.max(480, Math.round((raw + 20) / 500) * 500 - 20);
  return Math.round(raw / 1000) * 1000;
}

const ROUND: Record<Currency, (raw: number) => number> = { USD: fives, KRW: won, EUR: fives, JPY: yen, GBP: fives };

/** A number for each currency, in the order of `CURRENCIES`. */
export const perCurrency = (value: (currency: Currency) => number) =>
  Object.fromEntries(CURRENCIES.map((c) => [c, value(c)])) as Record<Currency, number>;

export const marketPrices = (usd: number) => perCurrency((c) => ROUND[c](usd * PRICE_LEVEL[c]));
