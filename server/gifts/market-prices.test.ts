/**
 * The catalog's prices in each market: at that market's price points, in the same order as the
 * US prices, and the matcher's picks within a budget in every currency (fast-check).
 */
import fc from "fast-check";
import { CURRENCIES } from "../../shared/money.js";
import { CATALOG } from "./catalog.js";
import { marketPrices, PRICE_LEVEL } from "./market-prices.js";
import { matchGifts } from "./matcher.js";
import { TAG_WORDS } from "./vocabulary.js";

const byId = new Map(CATALOG.map((item) => [item.id, item]));

describe("market prices", () => {
  it("gives every gift a price in every currency, the US one as before", () => {
    for (const item of CATALOG) {
      expect(Object.keys(item.prices).sort()).toEqual([...CURRENCIES].sort());
      expect(item.prices.USD).toBe(item.price);
    }
  });

  it("prices won at Korean price points: ₩…500 or ₩…900 under ₩10,000, whole thousands to ₩100,000, ₩…9,000 above", () => {
    for (const { prices, id } of CATALOG) {
      const won = prices.KRW;
      if (won < 10_000) expect([500, 900], `${id} ₩${won}`).toContain(won % 1000);
      else if (won <= 100_000) expect(won % 1000, `${id} ₩${won}`).toBe(0);
      else expect(won % 10_000, `${id} ₩${won}`).toBe(9000);
    }
  });

  it("prices yen at ¥…480 or ¥…980 under ¥10,000, whole thousands above; euros and pounds as dollars", () => {
    for (const { prices, id } of CATALOG) {
      if (prices.JPY < 10_000) expect([480, 980], `${id} ¥${prices.JPY}`).toContain(prices.JPY % 1000);
      else expect(prices.JPY % 1000).toBe(0);
      for (const amount of [prices.EUR, prices.GBP]) {
        expect(Number.isInteger(amount)).toBe(true);
        if (amount >= 50) expect(amount % 5).toBe(0);
      }
    }
  });

  it("keeps the US order in every market: a dearer gift never costs less", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 5, max: 500, noNaN: true }),
        fc.double({ min: 5, max: 500, noNaN: true }),
        (a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          for (const c of CURRENCIES) expect(marketPrices(low)[c]).toBeLessThanOrEqual(marketPrices(high)[c]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("has the prices docs/money-and-languages.md quotes", () => {
    const prices = (name: string) => CATALOG.find((i) => i.name === name)?.prices;
    expect(prices("Pour-Over Coffee Starter Kit")).toEqual({ USD: 45, KRW: 59_000, EUR: 43, JPY: 6_980, GBP: 36 });
    expect(prices("Stoneware Travel Mug")).toEqual({ USD: 24, KRW: 31_000, EUR: 23, JPY: 3_480, GBP: 19 });
  });
});

describe("picks in every currency", () => {
  it("never exceed the budget in the request's currency, priced as the catalog prices that market", () => {
    const tags = Object.keys(TAG_WORDS);
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCIES),
        fc.double({ min: 1, max: 700, noNaN: true }),
        fc.array(fc.constantFrom(...tags), { maxLength: 4 }),
        fc.constantFrom("en" as const, "ko" as const),
        (currency, base, interests, locale) => {
          const budget = base * PRICE_LEVEL[currency];
          const gifts = matchGifts({ occasion: "birthday", budget, interests, count: 5, currency, locale });
          const cheapest = Math.min(...CATALOG.map((i) => i.prices[currency]));
          if (budget >= cheapest) expect(gifts.length).toBeGreaterThan(0);
          for (const gift of gifts) {
            expect(gift.price).toBeLessThanOrEqual(budget);
            expect(gift.price).toBe(byId.get(gift.id)?.prices[currency]);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("writes the reasons' amounts in the currency: won in Korean, dollars in English", () => {
    const [ko] = matchGifts({
      occasion: "birthday",
      budget: 50_000,
      interests: ["coffee"],
      count: 1,
      currency: "KRW",
      locale: "ko",
    });
    expect(ko.reason).toMatch(/예산 ₩50,000 중 ₩\d{1,2},\d00입니다\.$/);
    expect(ko.price).toBeLessThanOrEqual(50_000);
    const [en] = matchGifts({ occasion: "birthday", budget: 50, interests: ["coffee"], count: 1, locale: "en" });
    expect(en.reason).toMatch(/; \$\d+ of the \$50 budget\.$/);
  });
});
