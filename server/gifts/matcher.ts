/**
 * The gift matcher: ranks catalog items by fit to interests, free text, department and occasion,
 * never over budget, in English or Korean. What does not depend on the request is computed once
 * (match-tables.ts); the per-request work runs on reused typed arrays, so a bulk job's 100,000
 * matches allocate little beyond the answers.
 */
import type { Currency } from "../../shared/money.js";
import type { Language } from "../../shared/stage-words.js";
import type { Gift } from "../../shared/tools.js";
import { CATALOG, type CatalogItem } from "./catalog.js";
import { GiftAnswers } from "./gift-answers.js";
import { createMatchTables } from "./match-tables.js";
import { createPicker } from "./pick.js";
import { DEPARTMENT, STATED, TagWeights } from "./tag-weights.js";
import { memoize } from "./text-index.js";

export type MatchRequest = {
  occasion: string;
  budget: number;
  interests: string[];
  department?: string;
  /** Free text about the recipient (suggest_gifts' `recipient`). */
  text?: string;
  count: number;
  /** English when left out. */
  locale?: Language;
  /** US dollars when left out. */
  currency?: Currency;
};

/** Pure and fast, shared by suggest_gifts and the jobs. */
export type MatchGifts = (request: MatchRequest) => Gift[];

/** How much a matched tag counts, by where the person's words came from. */
const WEIGHT = { interest: 10, text: 7, department: 2 } as const;
/** A tag related to a stated one (yoga → fitness) counts this share of the stated tag's weight. */
const RELATED = 0.5;
const OCCASION_FIT = 3;
/** Multiplied by price / budget: among equal fits, the gift that uses the budget wins. */
const PRICE_FIT = 4;

/** Pure: the same request always gets the same gifts. Each currency's tables are made when first asked. */
export function createMatcher(catalog: readonly CatalogItem[]): MatchGifts {
  const byCurrency = memoize((currency: Currency) => createCurrencyMatcher(catalog, currency));
  return (request) => byCurrency(request.currency ?? "USD")(request);
}

function createCurrencyMatcher(catalog: readonly CatalogItem[], currency: Currency): MatchGifts {
  const tables = createMatchTables(catalog, currency);
  const { prices, occasionMasks, text } = tables;
  const picker = createPicker(tables.items);
  const answers = new GiftAnswers(tables);
  // per-request scratch, reset before each request returns
  const scores = new Float64Array(tables.items.length);
  const tags = new TagWeights(tables);

  return function matchGifts(request: MatchRequest): Gift[] {
    const { budget, count } = request;
    const cutoff = upperBound(prices, budget);
    if (cutoff === 0 || !(count >= 1)) return [];
    try {
      for (const interest of request.interests) tags.note(text.tagsOf(interest), WEIGHT.interest, STATED);
      if (request.text) tags.note(text.tagsOf(request.text), WEIGHT.text, STATED);
      tags.noteRelated(RELATED);
      if (request.department) tags.note(text.departmentTagsOf(request.department), WEIGHT.department, DEPARTMENT);
      const occasion = text.occasionOf(request.occasion);
      const occasionBit = occasion < 0 ? 0 : 1 << occasion;
      const priceScale = PRICE_FIT / budget;
      for (let i = 0; i < cutoff; i++) {
        scores[i] = prices[i] * priceScale + ((occasionMasks[i] & occasionBit) !== 0 ? OCCASION_FIT : 0);
      }
      tags.addTo(scores, cutoff);
      const n = picker.pick(scores, cutoff, count);
      return answers.write(picker.picked, n, request, tags, occasion);
    } finally {
      // the scratch weights start at zero for the next request, whatever happened here
      tags.clear();
    }
  };
}

/** Number of prices ≤ budget (prices ascending). */
function upperBound(prices: Float64Array, budget: number): number {
  let lo = 0;
  let hi = prices.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (prices[mid] <= budget) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const matchGifts: MatchGifts = createMatcher(CATALOG);
