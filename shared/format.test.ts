/**
 * Money as a person reads it: in its currency and their language, whole amounts without cents,
 * won and yen always whole; and what `money` writes reads back (shared/money.ts) to the same
 * amount and currency in every locale (fast-check).
 */
import fc from "fast-check";
import { formatsFor } from "./format.js";
import { CURRENCIES, roundMoney } from "./money.js";
import { readMoney } from "./read-money.js";

describe("money", () => {
  it.each([
    ["en-US", 40, "USD", "$40"],
    ["en-US", 12.5, "USD", "$12.50"],
    ["ko-KR", 40, "USD", "$40"],
    ["ko-KR", 50_000, "KRW", "₩50,000"],
    ["en-US", 50_000, "KRW", "₩50,000"],
    ["ko-KR", 50_000.4, "KRW", "₩50,000"],
    ["de-DE", 40.5, "EUR", "40,50 €"],
    ["ja-JP", 2980, "JPY", "￥2,980"],
    ["en-GB", 25, "GBP", "£25"],
  ] as const)("in %s, %d %s is %s", (locale, amount, currency, text) => {
    expect(
      formatsFor(locale)
        .money(amount, currency)
        .replace(/\u00a0/g, " "),
    ).toBe(text);
  });

  it("reads back as the amount and currency it wrote, in every locale", () => {
    const locales = ["en-US", "ko-KR", "de-DE", "fr-FR", "ja-JP", "en-IN", "es-ES", "pt-BR", "zh-CN", "not a locale"];
    fc.assert(
      fc.property(
        fc.constantFrom(...locales),
        fc.constantFrom(...CURRENCIES),
        fc.integer({ min: 1, max: 1e10 }),
        (locale, currency, cents) => {
          const amount = roundMoney(cents / 100, currency);
          const text = formatsFor(locale).money(amount, currency);
          expect(readMoney(text), text).toEqual({ amount, currency });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
