/**
 * The gift matcher: ranks catalog items by fit to a person's interests, free text, department
 * and occasion, never over budget. Everything that does not depend on the request (price order,
 * tag → items lists, occasion masks) is computed once, so a match costs a few microseconds.
 */
import type { Gift } from "../../shared/tools.js";
import type { MatchGifts, MatchRequest } from "../jobs/job-service.js";
import { CATALOG, type CatalogItem } from "./catalog.js";
import { createTextIndex } from "./text-index.js";
import { giftReason } from "./reason.js";

/** How much a matched tag counts, by where the person's words came from. */
const WEIGHT = { interest: 10, text: 7, department: 3 } as const;
const OCCASION_FIT = 6;
/** Multiplied by price / budget: among equal fits, the gift that uses the budget wins. */
const PRICE_FIT = 4;
/** What each earlier pick from the same category takes off a candidate's score. */
const CATEGORY_REPEAT = 1;

type Indexed = CatalogItem & { base: string; tagIds: number[]; occasionMask: number };

/** Builds a matcher over `catalog`. Pure: the same request always gets the same gifts. */
export function createMatcher(catalog: readonly CatalogItem[]): MatchGifts {
  const sorted = [...catalog].sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : 1));
  const tagNames = [...new Set(sorted.flatMap((i) => i.tags))].sort();
  const occasionNames = [...new Set(sorted.flatMap((i) => i.occasions))].sort();
  if (occasionNames.length > 31) throw new Error("The matcher keeps occasions in a 31-bit mask");
  const text = createTextIndex(tagNames, occasionNames);
  const items: Indexed[] = sorted.map((item) => ({
    ...item,
    base: item.name.replace(/ \([^)]*\)$/, ""),
    tagIds: item.tags.map((t) => tagNames.indexOf(t)),
    occasionMask: item.occasions.reduce((m, o) => m | (1 << occasionNames.indexOf(o)), 0),
  }));
  // Item indexes per tag, ascending, i.e. cheapest first: a scan stops at the budget cutoff.
  const tagItems: number[][] = tagNames.map(() => []);
  items.forEach((item, i) => item.tagIds.forEach((t) => tagItems[t].push(i)));
  const prices = Float64Array.from(items, (i) => i.price);
  const scores = new Float64Array(items.length);
  const weights = new Float64Array(tagNames.length);

  /** Sets the weight of every tag the request names (the strongest source wins); returns them. */
  function weighTags(request: MatchRequest): number[] {
    const touched: number[] = [];
    const note = (ids: readonly number[], w: number) => {
      for (const t of ids) {
        if (weights[t] === 0) touched.push(t);
        if (w > weights[t]) weights[t] = w;
      }
    };
    for (const interest of request.interests) note(text.tagsOf(interest), WEIGHT.interest);
    if (request.text) note(text.tagsOf(request.text), WEIGHT.text);
    if (request.department) note(text.departmentTagsOf(request.department), WEIGHT.department);
    return touched;
  }

  function toGift(item: Indexed, request: MatchRequest, occasion: string | undefined): Gift {
    const matched = item.tagIds.filter((t) => weights[t] > 0).sort((a, b) => weights[b] - weights[a]);
    const reason = giftReason({
      item,
      budget: request.budget,
      interestTags: matched.filter((t) => weights[t] > WEIGHT.department).map((t) => tagNames[t]),
      department: matched.some((t) => weights[t] === WEIGHT.department) ? request.department : undefined,
      occasion: occasion !== undefined && item.occasions.includes(occasion) ? occasion : undefined,
    });
    return { id: item.id, name: item.name, price: item.price, category: item.category, reason };
  }

  return function matchGifts(request: MatchRequest): Gift[] {
    const { budget, count } = request;
    const cutoff = upperBound(prices, budget);
    if (cutoff === 0 || !(count >= 1)) return [];
    const touched = weighTags(request);
    try {
      const occasion = text.occasionOf(request.occasion);
      const occasionBit = occasion < 0 ? 0 : 1 << occasion;
      const priceScale = PRICE_FIT / budget;
      for (let i = 0; i < cutoff; i++) {
        scores[i] = prices[i] * priceScale + ((items[i].occasionMask & occasionBit) !== 0 ? OCCASION_FIT : 0);
      }
      for (const t of touched) {
        const list = tagItems[t];
        for (let k = 0; k < list.length && list[k] < cutoff; k++) scores[list[k]] += weights[t];
      }
      const picked = pickDiverse(topIndexes(scores, cutoff, count * 3 + 6), scores, items, count);
      return picked.map((i) => toGift(items[i], request, occasionNames[occasion]));
    } finally {
      // The scratch weights start at zero for the next request, whatever happened here.
      for (const t of touched) weights[t] = 0;
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

/** Indexes of the `k` best scores among the first `n`, best first; ties go to the pricier item. */
function topIndexes(scores: Float64Array, n: number, k: number): number[] {
  const top: number[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const s = scores[i];
    if (top.length === k && s <= scores[top[k - 1]]) continue;
    let at = top.length;
    while (at > 0 && scores[top[at - 1]] < s) at--;
    top.splice(at, 0, i);
    if (top.length > k) top.pop();
  }
  return top;
}

/**
 * Greedy picks from the ranked candidates: one edition per product, and each earlier pick from
 * the same category costs a little, so equally good gifts spread over categories while a clearly
 * better fit (a matched interest) still wins.
 */
function pickDiverse(ranked: number[], scores: Float64Array, items: Indexed[], count: number): number[] {
  const picked: number[] = [];
  const bases = new Set<string>();
  const perCategory = new Map<string, number>();
  while (picked.length < count) {
    let best = -1;
    let bestScore = -Infinity;
    for (const i of ranked) {
      if (bases.has(items[i].base)) continue;
      const s = scores[i] - CATEGORY_REPEAT * (perCategory.get(items[i].category) ?? 0);
      if (s > bestScore) {
        best = i;
        bestScore = s;
      }
    }
    if (best === -1) break;
    picked.push(best);
    bases.add(items[best].base);
    perCategory.set(items[best].category, (perCategory.get(items[best].category) ?? 0) + 1);
  }
  return picked;
}

/** The matcher over the shipped catalog. */
export const matchGifts: MatchGifts = createMatcher(CATALOG);
