/**
 * The gift catalog: the base products of `catalog-data.ts` expanded into priced editions, with
 * stable slug ids (of the English name, so an id is the same in every language) and their Korean
 * names (catalog-ko.ts), and a price in every market (market-prices.ts). Built once at import; the
 * same items back the matcher and the `gifts://catalog` resource.
 */
import type { Currency } from "../../shared/money.js";
import { CATEGORIES, EDITIONS, type CategorySource } from "./catalog-data.js";
import { CATEGORY_NAMES_KO, PRODUCT_NAMES_KO } from "./catalog-ko.js";
import { marketPrices, perCurrency } from "./market-prices.js";

export type CatalogItem = {
  id: string;
  name: string;
  category: string;
  /** The US price (`prices.USD`): whole dollars between 5 and 500. */
  price: number;
  /** The price in each market, at that market's price points (market-prices.ts). */
  prices: Record<Currency, number>;
  tags: string[];
  occasions: string[];
  /** The name and category in Korean. */
  ko: { name: string; category: string };
};

export const MIN_PRICE = 5;
export const MAX_PRICE = 500;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The Korean name of `english`, which must have one. */
function korean(names: Record<string, string>, english: string): string {
  const name = names[english];
  if (name === undefined) throw new Error(`No Korean name for ${english} (catalog-ko.ts)`);
  return name;
}

/** Expands categories into catalog items, in source order; ids are unique slugs of the names. */
export function buildCatalog(categories: CategorySource[]): CatalogItem[] {
  const items: CatalogItem[] = [];
  const ids = new Set<string>();
  for (const category of categories) {
    const categoryKo = korean(CATEGORY_NAMES_KO, category.name);
    for (const product of category.products) {
      const productKo = korean(PRODUCT_NAMES_KO, product.name);
      const occasions = [...new Set([...category.occasions, ...(product.occasions ?? [])])];
      for (const edition of EDITIONS[product.edition ?? "single"]) {
        const name = `${product.name}${edition.label}`;
        const id = slug(name);
        if (ids.has(id)) throw new Error(`Duplicate catalog id ${id}`);
        ids.add(id);
        // each market's price of the edition, its US price before rounding kept to $5–$500
        const prices = marketPrices(Math.min(MAX_PRICE, Math.max(MIN_PRICE, product.price * edition.factor)));
        items.push({
          id,
          name,
          category: category.name,
          price: prices.USD,
          prices,
          tags: [...product.tags],
          occasions,
          ko: { name: `${productKo}${edition.ko}`, category: categoryKo },
        });
      }
    }
  }
  return items;
}

/** The shipped catalog. */
export const CATALOG: readonly CatalogItem[] = buildCatalog(CATEGORIES);

/** The cheapest price of `catalog` in each currency: the smallest budget that buys a gift. */
export const cheapestPrices = (catalog: readonly CatalogItem[]): Record<Currency, number> =>
  perCurrency((c) => Math.min(...catalog.map((i) => i.prices[c])));

/** The shipped catalog's cheapest prices. */
export const CHEAPEST = cheapestPrices(CATALOG);
