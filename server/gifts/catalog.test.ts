import { CATEGORIES } from "./catalog-data.js";
import { CATALOG, MAX_PRICE, MIN_PRICE, buildCatalog } from "./catalog.js";
import { OCCASION_LABELS, OCCASION_WORDS, TAG_WORDS } from "./vocabulary.js";

describe("the catalog", () => {
  it("holds a few hundred items with unique ids, priced from $5 to $500", () => {
    expect(CATALOG.length).toBeGreaterThanOrEqual(300);
    expect(CATALOG.length).toBeLessThanOrEqual(500);
    expect(new Set(CATALOG.map((i) => i.id)).size).toBe(CATALOG.length);
    for (const item of CATALOG) {
      expect(item.price).toBeGreaterThanOrEqual(MIN_PRICE);
      expect(item.price).toBeLessThanOrEqual(MAX_PRICE);
      expect(Number.isInteger(item.price)).toBe(true);
    }
    expect(Math.min(...CATALOG.map((i) => i.price))).toBe(MIN_PRICE);
    expect(Math.max(...CATALOG.map((i) => i.price))).toBeGreaterThan(400);
  });

  it("uses only tags and occasions the matcher has words and labels for", () => {
    for (const item of CATALOG) {
      for (const tag of item.tags) expect(TAG_WORDS, `tag ${tag} of ${item.id}`).toHaveProperty([tag]);
      for (const occasion of item.occasions) {
        expect(OCCASION_WORDS, `occasion ${occasion}`).toHaveProperty([occasion]);
        expect(OCCASION_LABELS, `occasion ${occasion}`).toHaveProperty([occasion]);
      }
      expect(item.tags.length).toBeGreaterThan(0);
      expect(item.occasions.length).toBeGreaterThan(0);
    }
  });

  it("prices larger editions above the plain product", () => {
    const plain = CATALOG.find((i) => i.name === "Pour-Over Coffee Starter Kit");
    const gift = CATALOG.find((i) => i.name === "Pour-Over Coffee Starter Kit (Gift Edition)");
    expect(plain && gift && gift.price > plain.price).toBe(true);
  });

  it("refuses two products that would share an id", () => {
    const twice = [
      {
        name: "Dup",
        occasions: ["birthday"],
        products: [
          { name: "Same Thing", price: 10, tags: ["home"] },
          { name: "Same thing", price: 12, tags: ["home"] },
        ],
      },
    ];
    expect(() => buildCatalog(twice)).toThrow(/Duplicate catalog id same-thing/);
    expect(buildCatalog(CATEGORIES)).toEqual(CATALOG);
  });
});
