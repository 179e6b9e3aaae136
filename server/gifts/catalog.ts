/**
 * The gift catalog: the base products of `catalog-data.ts` expanded into priced editions,
 * with stable slug ids. Built once at import; the same items back the matcher and the
 * `gifts://catalog` resource.
 */
import { CATEGORIES, EDITIONS, type CategorySource } from "./catalog-data.js";

export type CatalogItem = {
  id: string;
  name: string;
  category: string;
  /** US dollars, whole or .99-free, between 5 and 500. */
  price: number;
  tags: string[];
  occasions: string[];
};

export const MIN_PRICE = 5;
export const MAX_PRICE = 500;

/** Rounds like a shop would: whole dollars under $50, then to the nearest $5. */
function shopPrice(raw: number): number {
  const rounded = raw < 50 ? Math.round(raw) : Math.round(raw / 5) * 5;
  return Math.min(MAX_PRICE, Math.max(MIN_PRICE, rounded));
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** Expands categories into catalog items, in source order; ids are unique slugs of the names. */
export function buildCatalog(categories: CategorySource[]): CatalogItem[] {
  const items: CatalogItem[] = [];
  const ids = new Set<string>();
  for (const category of categories) {
    for (const product of category.products) {
      const occasions = [...new Set([...category.occasions, ...(product.occasions ?? [])])];
      for (const edition of EDITIONS[product.edition ?? "single"]) {
        const name = `${product.name}${edition.label}`;
        const id = slug(name);
        if (ids.has(id)) throw new Error(`Duplicate catalog id ${id}`);
        ids.add(id);
        items.push({
          id,
          name,
          category: category.name,
          price: shopPrice(product.price * edition.factor),
          tags: [...product.tags],
          occasions,
        });
      }
    }
  }
  return items;
}

/** The shipped catalog. */
export const CATALOG: readonly CatalogItem[] = buildCatalog(CATEGORIES);
