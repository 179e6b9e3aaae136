/** The currencies the catalog is priced in, their smallest unit, and the currency a locale implies. */
import * as z from "zod/mini";

export const CURRENCIES = ["USD", "KRW", "EUR", "JPY", "GBP"] as const;
export const CurrencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof CurrencySchema>;

/** Digits after the decimal point a currency's amounts have: none for won and yen. */
export const MINOR_DIGITS: Record<Currency, number> = { USD: 2, KRW: 0, EUR: 2, JPY: 0, GBP: 2 };

/** An amount rounded to what its currency can pay: whole won and yen, cents otherwise. */
export function roundMoney(amount: number, currency: Currency): number {
  const scale = 10 ** MINOR_DIGITS[currency];
  return Math.round(amount * scale) / scale;
}

// Maps, not objects: a tag is what a caller sent, and "constructor" is a key of every object
const BY_REGION = new Map<string, Currency>([
  ...Object.entries({ KR: "KRW", JP: "JPY", GB: "GBP", US: "USD" } as const),
  ..."AT BE CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK".split(" ").map((r) => [r, "EUR"] as const),
]);
const BY_LANGUAGE = new Map(
  Object.entries({ ko: "KRW", ja: "JPY", de: "EUR", fr: "EUR", it: "EUR", nl: "EUR" } as const),
);

/** The region's currency (en-GB → GBP), else the language's (ko → KRW), else US dollars. */
export function currencyForLocale(locale: string | undefined): Currency {
  const [language, ...rest] = (locale ?? "").split(/[-_]/);
  const region = rest.find((p) => /^[A-Za-z]{2}$/.test(p))?.toUpperCase();
  return BY_REGION.get(region ?? "") ?? BY_LANGUAGE.get(language.toLowerCase()) ?? "USD";
}
