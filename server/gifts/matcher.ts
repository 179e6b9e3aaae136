/**
 * The gift matcher: ranks catalog items by fit to a person's interests, free text, department
 * and occasion, never over budget, and answers in English or Korean (names, categories, reasons;
 * the picks are the same in both). Everything that does not depend on the request (price order,
 * tag → items lists, occasion masks, names and reason clauses per language) is computed once, and
 * the per-request work runs on reused typed arrays, so a bulk job's 100,000 matches allocate little
 * beyond the answers.
 */
import type { Language } from "../../shared/stage-words.js";
import type { Gift } from "../../shared/tools.js";
import { CATALOG, type CatalogItem } from "./catalog.js";
import { createTextIndex } from "./text-index.js";
import { dollars, wordingOf, type Wording } from "./reason.js";
import { createPicker } from "./pick.js";
import { DEPARTMENT, NEAR, STATED, TagWeights } from "./tag-weights.js";
import { RELATED_TAGS } from "./vocabulary.js";

/** One person to find gifts for; the matcher ranks catalog items by fit, all within `budget`. */
export type MatchRequest = {
  occasion: string;
  budget: number;
  interests: string[];
  department?: string;
  /** Free text about the recipient (suggest_gifts' `recipient`). */
  text?: string;
  count: number;
  /** The language of the gifts' names, categories and reasons; English when left out. */
  locale?: Language;
};

/** The gift matcher (server/gifts/matcher.ts): pure and fast, shared by suggest_gifts and the jobs. */
export type MatchGifts = (request: MatchRequest) => Gift[];

/** How much a matched tag counts, by where the person's words came from. */
const WEIGHT = { interest: 10, text: 7, department: 2 } as const;
/** A tag related to a stated one (yoga → fitness) counts this share of the stated tag's weight. */
const RELATED = 0.5;
/**
 * An item's first tag says what it is, the later ones what else it suits: those count this share.
 * The gap (10 against 6) is wider than the occasion's weight, so a gift *for* the interest that
 * does not suit the occasion still comes before one that only touches it and does.
 */
const SIDE_TAG = 0.6;
const OCCASION_FIT = 3;
/** Multiplied by price / budget: among equal fits, the gift that uses the budget wins. */
const PRICE_FIT = 4;
/** Budgets whose text is remembered. */
const BUDGET_TEXTS = 10_000;

/** Builds a matcher over `catalog`. Pure: the same request always gets the same gifts. */
export function createMatcher(catalog: readonly CatalogItem[]): MatchGifts {
  const items = [...catalog].sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : 1));
  const tagNames = [...new Set(items.flatMap((i) => i.tags))].sort();
  const occasionNames = [...new Set(items.flatMap((i) => i.occasions))].sort();
  if (occasionNames.length > 31) throw new Error("The matcher keeps occasions in a 31-bit mask");
  const text = createTextIndex(tagNames, occasionNames);
  const tagIds = items.map((item) => item.tags.map((t) => tagNames.indexOf(t)));
  const occasionMasks = Int32Array.from(items, (item) =>
    item.occasions.reduce((m, o) => m | (1 << occasionNames.indexOf(o)), 0),
  );
  // Item indexes per tag, ascending, i.e. cheapest first: a scan stops at the budget cutoff; and
  // beside each, how much the tag counts for that item (its first tag in full, the others less).
  const byTag: [item: number, share: number][][] = tagNames.map(() => []);
  tagIds.forEach((ids, i) => ids.forEach((t, position) => byTag[t].push([i, position === 0 ? 1 : SIDE_TAG])));
  const tagItems = byTag.map((list) => Int32Array.from(list, ([i]) => i));
  const tagShares = byTag.map((list) => Float64Array.from(list, ([, share]) => share));
  const related = tagNames.map((t) =>
    (RELATED_TAGS[t] ?? []).filter((r) => tagNames.includes(r)).map((r) => tagNames.indexOf(r)),
  );
  const prices = Float64Array.from(items, (i) => i.price);
  const picker = createPicker(items);
  // Names and reason clauses that depend on the item, tag or occasion alone, per language.
  const priceTexts = items.map((i) => dollars(i.price));
  const budgetTexts = new Map<number, string>(); // a job has a handful of budgets; Intl is slow per call
  const wordings: Record<Language, Wording> = {
    en: wordingOf("en", items, tagNames, occasionNames),
    ko: wordingOf("ko", items, tagNames, occasionNames),
  };

  // Per-request scratch, reset before each request returns.
  const scores = new Float64Array(items.length);
  const loose = new Float64Array(items.length); // an item's strongest related or department tag
  const loosened = new Int32Array(items.length); // the items with a `loose` weight, to add and clear
  const tags = new TagWeights(related);
  const { weights, kinds, sources } = tags;

  /**
   * Adds each noted tag's weight to the items below the cutoff that carry it. Stated interests
   * and free text add up over an item's tags (a gift for two of them beats a gift for one); related
   * and department tags do not stack: only an item's strongest such tag counts, so a gift loosely
   * tagged with many cannot pass a stated interest.
   */
  function score(cutoff: number): void {
    let n = 0;
    for (let k = 0; k < tags.count; k++) {
      const t = tags.touched[k];
      const list = tagItems[t];
      const shares = tagShares[t];
      const w = weights[t];
      if (kinds[t] === STATED) {
        for (let j = 0; j < list.length && list[j] < cutoff; j++) scores[list[j]] += w * shares[j];
        continue;
      }
      for (let j = 0; j < list.length && list[j] < cutoff; j++) {
        const i = list[j];
        if (loose[i] === 0) loosened[n++] = i;
        if (w * shares[j] > loose[i]) loose[i] = w * shares[j];
      }
    }
    for (let k = 0; k < n; k++) {
      const i = loosened[k];
      scores[i] += loose[i];
      loose[i] = 0;
    }
    for (let i = 0; i < cutoff; i++) {
      scores[i] += loose[i];
      loose[i] = 0;
    }
  }

  /**
   * The reason's opening: the two strongest stated interests the item matched (ties keep the
   * item's tag order), else the stated interest it goes with, else the department if it pointed
   * here, else the category.
   */
  function opening(i: number, department: string | undefined, wording: Wording): string {
    const ids = tagIds[i];
    let first = -1;
    let second = -1;
    let near = -1;
    let w1 = 0;
    let w2 = 0;
    let viaDepartment = false;
    for (let k = 0; k < ids.length; k++) {
      const t = ids[k];
      const w = weights[t];
      if (kinds[t] === DEPARTMENT && w > 0) viaDepartment = true;
      if (kinds[t] === NEAR && w > 0 && (near === -1 || w > weights[near])) near = t;
      if (kinds[t] !== STATED || w === 0) continue;
      if (w > w1) {
        second = first;
        w2 = w1;
        first = t;
        w1 = w;
      } else if (w > w2) {
        second = t;
        w2 = w;
      }
    }
    if (first >= 0) {
      return second >= 0 ? wording.pairFirsts[first] + wording.pairSeconds[second] : wording.interests[first];
    }
    if (near >= 0) return wording.related[sources[near]];
    if (viaDepartment && department) return wording.words.department(department);
    return wording.categoryOpenings[i];
  }

  function gifts(picked: Int32Array, n: number, request: MatchRequest, occasionBit: number, occasion: number): Gift[] {
    const wording = wordings[request.locale ?? "en"];
    let budgetText = budgetTexts.get(request.budget);
    if (budgetText === undefined) {
      if (budgetTexts.size >= BUDGET_TEXTS) budgetTexts.clear();
      budgetTexts.set(request.budget, (budgetText = dollars(request.budget)));
    }
    const out = new Array<Gift>(n);
    for (let k = 0; k < n; k++) {
      const i = picked[k];
      const suits = (occasionMasks[i] & occasionBit) !== 0 ? wording.occasions[occasion] : "";
      const reason = wording.words.sentence(opening(i, request.department, wording), suits, priceTexts[i], budgetText);
      out[k] = { id: items[i].id, name: wording.names[i], price: prices[i], category: wording.categories[i], reason };
    }
    return out;
  }

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
      score(cutoff);
      const n = picker.pick(scores, cutoff, count);
      return gifts(picker.picked, n, request, occasionBit, occasion);
    } finally {
      // The scratch weights start at zero for the next request, whatever happened here.
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

/** The matcher over the shipped catalog. */
export const matchGifts: MatchGifts = createMatcher(CATALOG);
