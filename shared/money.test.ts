/**
 * The money reader against amounts as people type them and as Intl writes them in many locales
 * (fast-check: random amounts, currencies, locales and displays, read back), and the locale's
 * currency.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CURRENCIES, currencyForLocale, roundMoney, type Currency } from "./money.js";
import { readMoney } from "./read-money.js";

describe("readMoney", () => {
  it.each<[string, number, Currency | undefined]>([
    ["50000", 50000, undefined],
    ["50,000", 50000, undefined],
    ["50,000원", 50000, "KRW"],
    ["50,000 원", 50000, "KRW"],
    ["50000 원", 50000, "KRW"],
    ["₩50,000", 50000, "KRW"],
    ["￦50,000", 50000, "KRW"],
    ["￦５０，０００", 50000, "KRW"],
    ["5만원", 50000, "KRW"],
    ["5만 원", 50000, "KRW"],
    ["3만5천원", 35000, "KRW"],
    ["1억", 100_000_000, undefined],
    ["1억 2천만원", 120_000_000, "KRW"],
    ["2천원", 2000, "KRW"],
    ["5천 원", 5000, "KRW"],
    ["10만", 100000, undefined],
    ["만원", 10000, "KRW"],
    ["1.5만원", 15000, "KRW"],
    ["50,000 KRW", 50000, "KRW"],
    ["KRW 50,000", 50000, "KRW"],
    ["krw50000", 50000, "KRW"],
    ["$40", 40, "USD"],
    ["40 USD", 40, "USD"],
    ["USD 40", 40, "USD"],
    ["US$40", 40, "USD"],
    ["$1,250", 1250, "USD"],
    ["1,234.50", 1234.5, undefined],
    ["49.99", 49.99, undefined],
    ["€ 40,50", 40.5, "EUR"],
    ["1.234,50 €", 1234.5, "EUR"],
    ["80 €", 80, "EUR"],
    ["£25", 25, "GBP"],
    ["¥5,000", 5000, "JPY"],
    ["5,000円", 5000, "JPY"],
    ["5万円", 50000, "JPY"],
    ["12,34,567", 1234567, undefined],
    ["  60  ", 60, undefined],
    ["0", 0, undefined],
  ])("reads %j as %d %s", (text, amount, currency) => {
    expect(readMoney(text)).toEqual({ amount, currency });
  });

  it("rounds won to whole won, which has no smaller unit", () => {
    expect(readMoney("50,000.6원")).toEqual({ amount: 50001, currency: "KRW" });
  });

  it.each([
    "",
    "abc",
    "-40",
    "$-40",
    "CA$40",
    "A$40",
    "40 CHF",
    "$40 USD",
    "₩50,000 $",
    "1,2345",
    "1.234.5678",
    "1,23,4",
    "5천만억",
    "0.125",
    "forty",
    "40$$",
    "1,000.000.00",
  ])("refuses %j", (text) => {
    expect(readMoney(text)).toBeUndefined();
  });
});

const LOCALES = ["en-US", "ko-KR", "de-DE", "fr-FR", "ja-JP", "en-IN", "de-CH", "en-GB", "es-ES", "pt-BR", "nl-NL"];
const NAMED_LOCALES = ["en-US", "ko-KR", "ja-JP"];

describe("readMoney reads back what Intl writes", () => {
  it("in every locale, currency and display", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom("symbol", "narrowSymbol", "code", "name"),
        fc.integer({ min: 1, max: 2_000_000_000 }),
        fc.boolean(),
        (locale0, currency, display, cents, grouping) => {
          const locale = display === "name" ? NAMED_LOCALES[cents % NAMED_LOCALES.length] : locale0;
          const amount = roundMoney(cents / 100, currency);
          const format = new Intl.NumberFormat(locale, {
            style: "currency",
            currency,
            currencyDisplay: display as Intl.NumberFormatOptions["currencyDisplay"],
            useGrouping: grouping,
          });
          const text = format.format(amount);
          // Intl's own rounding of won and yen is the amount the text says
          const shown = roundMoney(amount, currency);
          expect(readMoney(text), text).toEqual({ amount: shown, currency });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("plain numbers as spreadsheets and people write them", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOCALES), fc.integer({ min: 0, max: 1e11 }), (locale, cents) => {
        const amount = cents / 100;
        const text = new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(amount);
        expect(readMoney(text), text).toEqual({ amount, currency: undefined });
      }),
      { numRuns: 2000 },
    );
  });

  it("Korean units read back", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 9 }), (man, cheon) => {
        fc.pre(man + cheon > 0);
        const text = `${man > 0 ? `${man}만` : ""}${cheon > 0 ? `${cheon}천` : ""}원`;
        expect(readMoney(text), text).toEqual({ amount: man * 10_000 + cheon * 1000, currency: "KRW" });
      }),
    );
  });
});

describe("currencyForLocale", () => {
  it.each<[string | undefined, Currency]>([
    ["ko-KR", "KRW"],
    ["ko", "KRW"],
    ["en-US", "USD"],
    ["en", "USD"],
    ["ja", "JPY"],
    ["ja-JP", "JPY"],
    ["en-GB", "GBP"],
    ["de-DE", "EUR"],
    ["fr", "EUR"],
    ["en-KR", "KRW"],
    ["zh-Hant-TW", "USD"],
    ["", "USD"],
    [undefined, "USD"],
    ["x-whatever", "USD"],
  ])("%s → %s", (locale, currency) => {
    expect(currencyForLocale(locale)).toBe(currency);
  });

  it("answers one of its currencies for any tag a caller may send, words an object already has among them", () => {
    for (const locale of ["constructor", "__proto__", "toString-KR", "hasOwnProperty", "valueOf-us"])
      expect(CURRENCIES).toContain(currencyForLocale(locale));
    fc.assert(fc.property(fc.string({ maxLength: 35 }), (locale) => CURRENCIES.includes(currencyForLocale(locale))));
  });
});
