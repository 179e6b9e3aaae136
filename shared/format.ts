/**
 * Every number a person reads, one way per locale for widget and server alike, through Intl
 * (Node 20 lacks Intl.DurationFormat). Formatters are made once per locale: making costs more than using.
 */
import { MINOR_DIGITS, type Currency } from "./money.js";

export type Formats = ReturnType<typeof makeFormats>;

/** English when Intl does not know the locale. */
function intl<T>(make: (locale: string) => T, locale: string): T {
  try {
    return make(locale);
  } catch {
    return make("en");
  }
}

function makeFormats(locale: string) {
  const number = (options: Intl.NumberFormatOptions) => intl((l) => new Intl.NumberFormat(l, options), locale);
  const count = number({ maximumFractionDigits: 0 });
  const whole = number({ maximumFractionDigits: 0, useGrouping: false });
  const percent = number({ style: "percent", maximumFractionDigits: 0 });
  const currency = (code: Currency, digits: number) =>
    number({
      style: "currency",
      currency: code,
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
  // per currency: [whole amounts, amounts with their minor unit], made when first used
  const moneyOf = oncePer((code: Currency) => [currency(code, 0), currency(code, MINOR_DIGITS[code])] as const);
  const megabytes = number({ style: "unit", unit: "megabyte", maximumFractionDigits: 1 });
  const [hours, minutes, seconds] = ["hour", "minute", "second"].map((unit) =>
    number({ style: "unit", unit, unitDisplay: "short" }),
  );
  const units = intl((l) => new Intl.ListFormat(l, { style: "narrow", type: "unit" }), locale);
  const time = intl((l) => new Intl.DateTimeFormat(l, { timeStyle: "short" }), locale);
  return {
    count: (n: number) => count.format(n),
    index: (n: number) => whole.format(n),
    /** `value` from 0 to 100. */
    percent: (value: number) => percent.format(value / 100),
    money: (amount: number, code: Currency) => {
      const [whole, minor] = moneyOf(code);
      return (Number.isInteger(Math.round(amount * 100) / 100) ? whole : minor).format(amount);
    },
    duration: (total: number) => {
      const s = Math.max(0, Math.round(total));
      if (s < 1) return `<${seconds.format(1)}`;
      // the two largest units, the smaller left out when it is zero
      const parts = [
        [hours, Math.floor(s / 3600)],
        [minutes, Math.floor((s % 3600) / 60)],
        [seconds, s % 60],
      ] as const;
      const first = parts.findIndex(([, n]) => n > 0);
      const shown = parts.slice(first, first + 2).filter(([, n]) => n > 0);
      return units.format(shown.map(([f, n]) => f.format(n)));
    },
    size: (bytes: number) => megabytes.format(bytes / 1024 / 1024),
    time: (ms: number) => time.format(ms),
  };
}

/** "12, 40" or, when it lists fewer than it counts, "12, 40, …": the same in every language. */
export const listed = (items: readonly (string | number)[], count: number): string =>
  `${items.join(", ")}${count > items.length ? ", …" : ""}`;

/** `make`, called once per key: its answer (`undefined` too) is kept, and all forgotten once `limit` are. */
export function oncePer<K, V>(make: (key: K) => V, limit = Infinity): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    let kept = made.get(key);
    if (kept === undefined && !made.has(key)) {
      if (made.size >= limit) made.clear();
      kept = make(key);
      made.set(key, kept);
    }
    return kept as V;
  };
}

export const formatsFor = oncePer(makeFormats);
