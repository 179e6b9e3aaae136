/**
 * The one-sentence `reason` of each gift, in English or Korean: the interests it meets, the occasion,
 * the budget. Split into clauses so the matcher makes the fixed ones once, at load (`wordingOf`).
 */
import { formatsFor, oncePer } from "../../shared/format.js";
import type { Currency } from "../../shared/money.js";
import type { Language } from "../../shared/stage-words.js";
import type { CatalogItem } from "./catalog.js";
import { endsInConsonant } from "./hangul.js";
import { OCCASION_LABELS } from "./vocabulary.js";
import { OCCASION_FITS_KO, TAG_LABELS_KO } from "./vocabulary-ko.js";

/** "$45", "$12.50", "₩59,000": an amount in its currency as the widget writes it in `language`. */
export function moneyText(amount: number, currency: Currency, language: Language = "en"): string {
  return formatsFor(language === "ko" ? "ko-KR" : "en-US").money(amount, currency);
}

const label = (tag: string) => tag.replace(/-/g, " ");
const interestEn = (tag: string) => `Matches their interest in ${label(tag)}`;

/** Openings by what matched (an interest, two, a related one, the department, nothing), then the clauses. */
const EN = {
  interest: interestEn,
  /** Two interests: `pairFirst(a) + pairSecond(b)`, "…interest in coffee" + " and yoga". */
  pairFirst: interestEn,
  pairSecond: (tag: string) => ` and ${label(tag)}`,
  related: (tag: string) => `Goes well with their interest in ${label(tag)}`,
  department: (department: string) => `A good fit for someone in ${department.trim()}`,
  category: (category: string) => `A well-loved ${category.toLowerCase()} gift`,
  occasion: (occasion: string) => `; suits ${OCCASION_LABELS[occasion] ?? occasion}`,
  /** The amounts come already written by `moneyText` (each is made once). */
  sentence: (opening: string, occasion: string, price: string, budget: string) =>
    `${opening}${occasion}; ${price} of the ${budget} budget.`,
};
type ReasonWords = typeof EN;

const labelKo = (tag: string) => TAG_LABELS_KO[tag] ?? label(tag);
/** "등산을", "커피를": the label as the object of 좋아하다. */
const objectKo = (tag: string) => `${labelKo(tag)}${endsInConsonant(labelKo(tag)) ? "을" : "를"}`;

// "등산을 좋아하셔서 고른 선물로, 생일 축하에 잘 어울립니다. 예산 ₩79,000 중 ₩59,000입니다." Every opening
// ends in 선물, which takes 로.
const KO: ReasonWords = {
  interest: (tag) => `${objectKo(tag)} 좋아하셔서 고른 선물`,
  pairFirst: (tag) => `${labelKo(tag)}${endsInConsonant(labelKo(tag)) ? "과" : "와"} `,
  pairSecond: (tag) => KO.interest(tag),
  related: (tag) => `${objectKo(tag)} 좋아하시는 분께 잘 맞는 선물`,
  department: (department) => `${department.trim()}에서 일하시는 분께 맞춘 선물`,
  category: (category) => `많은 분이 좋아하는 ${category} 선물`,
  occasion: (occasion) => `로, ${OCCASION_FITS_KO[occasion] ?? `${occasion}에 잘 어울립니다`}`,
  sentence: (opening, occasion, price, budget) =>
    `${opening}${occasion || "입니다"}. 예산 ${budget} 중 ${price}입니다.`,
};

/** An answer's words in one language, made once: names, categories, prices and reason clauses by index. */
export type Wording = ReturnType<typeof wordingsOf>[Language];

export function wordingsOf(items: readonly CatalogItem[], currency: Currency, tags: string[], occasions: string[]) {
  const wording = (language: Language, words: ReasonWords) => {
    const categories = items.map((i) => (language === "ko" ? i.ko.category : i.category));
    return {
      words,
      names: items.map((i) => (language === "ko" ? i.ko.name : i.name)),
      categories,
      prices: items.map((i) => moneyText(i.prices[currency], currency, language)),
      /** A job has a handful of budgets, and Intl is slow per call: each budget's text, made once. */
      budget: oncePer((budget: number) => moneyText(budget, currency, language), 10_000),
      categoryOpenings: categories.map(words.category),
      interests: tags.map(words.interest),
      pairFirsts: tags.map(words.pairFirst),
      pairSeconds: tags.map(words.pairSecond),
      related: tags.map(words.related),
      occasions: occasions.map(words.occasion),
    };
  };
  return { en: wording("en", EN), ko: wording("ko", KO) };
}
