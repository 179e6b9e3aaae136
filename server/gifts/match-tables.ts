/** What the matcher knows of a catalog before any request, built once so a request only reads it. */
import type { Currency } from "../../shared/money.js";
import type { CatalogItem } from "./catalog.js";
import { byLanguage, moneyText, wordingOf } from "./reason.js";
import { createTextIndex } from "./text-index.js";
import { RELATED_TAGS } from "./vocabulary.js";

/**
 * An item's first tag says what it is, the later ones what else it suits: those count this share. The gap
 * (10 against 6) passes the occasion's 3: a gift *for* the interest beats one that touches it and suits the occasion.
 */
const SIDE_TAG = 0.6;

/** The catalog indexed for matching in one currency; items are referred to by their index in `items`. */
export type MatchTables = ReturnType<typeof createMatchTables>;

export function createMatchTables(catalog: readonly CatalogItem[], currency: Currency) {
  const items = [...catalog].sort((a, b) => a.prices[currency] - b.prices[currency] || (a.id < b.id ? -1 : 1));
  const tagNames = [...new Set(items.flatMap((i) => i.tags))].sort();
  const occasionNames = [...new Set(items.flatMap((i) => i.occasions))].sort();
  if (occasionNames.length > 31) throw new Error("The matcher keeps occasions in a 31-bit mask");
  const tagIds = items.map((item) => item.tags.map((t) => tagNames.indexOf(t)));
  const byTag: [item: number, share: number][][] = tagNames.map(() => []);
  tagIds.forEach((ids, i) => ids.forEach((t, position) => byTag[t].push([i, position === 0 ? 1 : SIDE_TAG])));
  return {
    currency,
    /** Cheapest first in `currency` (ties by id), so the items within a budget are a prefix. */
    items,
    prices: Float64Array.from(items, (i) => i.prices[currency]),
    /** Each item's price as the reasons write it, per language. */
    priceTexts: byLanguage((language) => items.map((i) => moneyText(i.prices[currency], currency, language))),
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
    wordings: byLanguage((language) => wordingOf(language, items, tagNames, occasionNames)),
  };
}
