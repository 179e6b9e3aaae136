/**
 * The gift matcher: ranks catalog items by fit to interests, free text, department and occasion, never over
 * budget, in English or Korean. What does not depend on the request is computed once (`createMatchTables`);
 * each request weighs the tags it points at, scores the items within budget, picks a diverse few and words them,
 * on reused typed arrays, so a bulk job's 100,000 matches allocate little beyond the answers.
 */
import { oncePer } from "../../shared/format.js";
import type { Currency } from "../../shared/money.js";
import type { Language } from "../../shared/stage-words.js";
import type { Gift } from "../../shared/tools.js";
import { CATALOG, type CatalogItem } from "./catalog.js";
import { wordingsOf, type Wording } from "./reason.js";
import { DEPARTMENT, NEAR, STATED, TagWeights } from "./tag-weights.js";
import { createTextIndex } from "./text-index.js";
import { RELATED_TAGS } from "./vocabulary.js";

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

/**
 * An item's first tag says what it is, the later ones what else it suits: those count this share. The gap
 * (10 against 6) passes the occasion's 3: a gift *for* the interest beats one that touches it and suits the occasion.
 */
const SIDE_TAG = 0.6;

/** The catalog indexed for matching in one currency; items are referred to by their index in `items`. */
function createMatchTables(catalog: readonly CatalogItem[], currency: Currency) {
  const items = [...catalog].sort((a, b) => a.prices[currency] - b.prices[currency] || (a.id < b.id ? -1 : 1));
  const tagNames = [...new Set(items.flatMap((i) => i.tags))].sort();
  const occasionNames = [...new Set(items.flatMap((i) => i.occasions))].sort();
  if (occasionNames.length > 31) throw new Error("The matcher keeps occasions in a 31-bit mask");
  const tagIds = items.map((item) => item.tags.map((t) => tagNames.indexOf(t)));
  const byTag: [item: number, share: number][][] = tagNames.map(() => []);
  tagIds.forEach((ids, i) => ids.forEach((t, position) => byTag[t].push([i, position === 0 ? 1 : SIDE_TAG])));
  return {
    /** Cheapest first in `currency` (ties by id), so the items within a budget are a prefix. */
    items,
    prices: Float64Array.from(items, (i) => i.prices[currency]),
    text: createTextIndex(tagNames, occasionNames),
    /** Per item: its tag ids, in the item's order. */
    tagIds,
    /** Per item: a bit per occasion it suits. */
    occasionMasks: Int32Array.from(items, (item) =>
      item.occasions.reduce((m, o) => m | (1 << occasionNames.indexOf(o)), 0),
    ),
    /** Per tag: the items that carry it, ascending, i.e. cheapest first (a scan stops at the budget). */
    tagItems: byTag.map((list) => Int32Array.from(list, ([i]) => i)),
    /** Beside `tagItems`: how much the tag counts for that item (its first tag in full, the others less). */
    tagShares: byTag.map((list) => Float64Array.from(list, ([, share]) => share)),
    /** Per tag: the tags next to it (yoga → fitness). */
    related: tagNames.map((t) =>
      (RELATED_TAGS[t] ?? []).filter((r) => tagNames.includes(r)).map((r) => tagNames.indexOf(r)),
    ),
    wordings: wordingsOf(items, currency, tagNames, occasionNames),
  };
}

/** What each earlier pick from the same category takes off a candidate's score. */
const CATEGORY_REPEAT = 1;

/**
 * Chooses the gifts from the scored items: the best few candidates, then greedy picks of one edition
 * per product, spread over categories. The picker writes up to `count` of the first `n` items by
 * `scores` into `picked`, best first, and returns how many. Buffers are reused: this runs once per
 * person in bulk jobs.
 */
function createPicker(items: readonly CatalogItem[]) {
  const baseOf = ids(items.map((item) => item.name.replace(/ \([^)]*\)$/, "")));
  const categoryOf = ids(items.map((item) => item.category));
  const baseUsed = new Uint8Array(items.length);
  const perCategory = new Int32Array(items.length);
  let ranked = new Int32Array(0);

  return (scores: Float64Array, n: number, count: number, picked: Int32Array): number => {
    // a few more candidates than asked, so the diversity rules have room to choose
    const k = count * 3 + 6;
    if (ranked.length < k) ranked = new Int32Array(k);
    const m = topIndexes(scores, n, k, ranked);
    let p = 0;
    while (p < count) {
      let best = -1;
      let bestScore = -Infinity;
      for (let r = 0; r < m; r++) {
        const i = ranked[r];
        if (baseUsed[baseOf[i]] !== 0) continue;
        const s = scores[i] - CATEGORY_REPEAT * perCategory[categoryOf[i]];
        if (s > bestScore) {
          best = i;
          bestScore = s;
        }
      }
      if (best === -1) break;
      picked[p++] = best;
      baseUsed[baseOf[best]] = 1;
      perCategory[categoryOf[best]]++;
    }
    for (let q = 0; q < p; q++) {
      baseUsed[baseOf[picked[q]]] = 0;
      perCategory[categoryOf[picked[q]]] = 0;
    }
    return p;
  };
}

/**
 * Writes the indexes of the `k` best scores among the first `n` into `top`, best first, and
 * returns how many; ties go to the pricier item (the higher index), as the scan runs downwards.
 */
function topIndexes(scores: Float64Array, n: number, k: number, top: Int32Array): number {
  let len = 0;
  for (let i = n - 1; i >= 0; i--) {
    const s = scores[i];
    if (len === k && s <= scores[top[k - 1]]) continue;
    // shift the worse entries down one place; when full, the last one falls off
    let at = len === k ? k - 1 : len++;
    while (at > 0 && scores[top[at - 1]] < s) {
      top[at] = top[at - 1];
      at--;
    }
    top[at] = i;
  }
  return len;
}

/** Numbers each distinct value in order of first appearance. */
function ids(values: string[]): Int32Array {
  const order = new Map([...new Set(values)].map((v, i) => [v, i]));
  return Int32Array.from(values, (v) => order.get(v) ?? 0);
}

/** Pure: the same request always gets the same gifts. Each currency's tables are made when first asked. */
export function createMatcher(catalog: readonly CatalogItem[]): MatchGifts {
  const byCurrency = oncePer((currency: Currency) => createCurrencyMatcher(catalog, currency));
  return (request) => byCurrency(request.currency ?? "USD")(request);
}

function createCurrencyMatcher(catalog: readonly CatalogItem[], currency: Currency): MatchGifts {
  const tables = createMatchTables(catalog, currency);
  const { items, prices, occasionMasks, text } = tables;
  const pick = createPicker(items);
  let picked = new Int32Array(0);
  // per-request scratch, reset before each request returns
  const scores = new Float64Array(items.length);
  const tags = new TagWeights(tables);

  /** The gifts for the first `n` of `picked`; `occasion` is the request's occasion id, -1 for none. */
  function writeGifts(n: number, request: MatchRequest, occasion: number, occasionBit: number): Gift[] {
    const wording = tables.wordings[request.locale ?? "en"];
    const budgetText = wording.budget(request.budget);
    const out = new Array<Gift>(n);
    for (let k = 0; k < n; k++) {
      const i = picked[k];
      const suits = (occasionMasks[i] & occasionBit) !== 0 ? wording.occasions[occasion] : "";
      const opening = openingOf(tables.tagIds[i], request.department, tags, wording) ?? wording.categoryOpenings[i];
      const reason = wording.words.sentence(opening, suits, wording.prices[i], budgetText);
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
      tags.addTo(scores, cutoff);
      if (picked.length < count) picked = new Int32Array(count);
      const n = pick(scores, cutoff, count, picked);
      return writeGifts(n, request, occasion, occasionBit);
    } finally {
      // the scratch weights start at zero for the next request, whatever happened here
      tags.clear();
    }
  };
}

/** The two strongest stated interests matched, else a related one, else the department (else none: the category). */
function openingOf(ids: number[], department: string | undefined, tags: TagWeights, wording: Wording) {
  const { weights, kinds, sources } = tags;
  let [first, second, near] = [-1, -1, -1];
  let viaDepartment = false;
  for (const t of ids) {
    const w = weights[t];
    if (w === 0) continue;
    if (kinds[t] === DEPARTMENT) viaDepartment = true;
    else if (kinds[t] === NEAR) near = near === -1 || w > weights[near] ? t : near;
    else if (first === -1 || w > weights[first]) [second, first] = [first, t];
    else if (second === -1 || w > weights[second]) second = t;
  }
  if (first >= 0)
    return second >= 0 ? wording.pairFirsts[first] + wording.pairSeconds[second] : wording.interests[first];
  if (near >= 0) return wording.related[sources[near]];
  return viaDepartment && department ? wording.words.department(department) : undefined;
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
