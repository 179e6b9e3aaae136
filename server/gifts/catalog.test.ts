import { CATEGORIES } from "./catalog-data.js";
import { CATALOG, MAX_PRICE, MIN_PRICE, buildCatalog } from "./catalog.js";
import { DEPARTMENT_TAGS, OCCASION_LABELS, OCCASION_WORDS, TAG_WORDS } from "./vocabulary.js";
import {
  DEPARTMENT_WORDS_KO,
  OCCASION_FITS_KO,
  OCCASION_WORDS_KO,
  TAG_LABELS_KO,
  TAG_WORDS_KO,
} from "./vocabulary-ko.js";

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
      for (const tag of item.tags) {
        expect(TAG_WORDS, `tag ${tag} of ${item.id}`).toHaveProperty([tag]);
        expect(TAG_WORDS_KO, `tag ${tag} of ${item.id}`).toHaveProperty([tag]);
        expect(TAG_LABELS_KO, `tag ${tag} of ${item.id}`).toHaveProperty([tag]);
      }
      for (const occasion of item.occasions) {
        expect(OCCASION_WORDS, `occasion ${occasion}`).toHaveProperty([occasion]);
        expect(OCCASION_LABELS, `occasion ${occasion}`).toHaveProperty([occasion]);
        expect(OCCASION_WORDS_KO, `occasion ${occasion}`).toHaveProperty([occasion]);
        expect(OCCASION_FITS_KO, `occasion ${occasion}`).toHaveProperty([occasion]);
      }
      expect(item.tags.length).toBeGreaterThan(0);
      expect(item.occasions.length).toBeGreaterThan(0);
    }
  });

  it("has Korean words for every kind of department the matcher knows", () => {
    for (const department of Object.keys(DEPARTMENT_WORDS_KO)) expect(DEPARTMENT_TAGS).toHaveProperty([department]);
    // English aliases ("people" and "human resources" for hr) share their tags with a key Korean names
    const named = new Set(Object.keys(DEPARTMENT_WORDS_KO).map((d) => DEPARTMENT_TAGS[d].join()));
    for (const [department, tags] of Object.entries(DEPARTMENT_TAGS)) expect(named, department).toContain(tags.join());
  });

  it("prices larger editions above the plain product", () => {
    const plain = CATALOG.find((i) => i.name === "Pour-Over Coffee Starter Kit");
    const gift = CATALOG.find((i) => i.name === "Pour-Over Coffee Starter Kit (Gift Edition)");
    expect(plain && gift && gift.price > plain.price).toBe(true);
  });

  it("refuses two products that would share an id, and a product without a Korean name", () => {
    const category = { name: "Keepsakes", occasions: ["birthday"] };
    const bookmark = { name: "Brass Bookmark", price: 7, tags: ["reading"] };
    const twice = [{ ...category, products: [bookmark, { ...bookmark, price: 9 }] }];
    expect(() => buildCatalog(twice)).toThrow(/Duplicate catalog id brass-bookmark/);
    const unnamed = [{ ...category, products: [{ ...bookmark, name: "Brass Bookmark Deluxe" }] }];
    expect(() => buildCatalog(unnamed)).toThrow(/No Korean name for Brass Bookmark Deluxe/);
    expect(buildCatalog(CATEGORIES)).toEqual(CATALOG);
  });

  it("names every item and category in Korean, editions as a Korean shop labels them, ids as in English", () => {
    for (const item of CATALOG) {
      expect(item.ko.name, item.id).toMatch(/[가-힣]/);
      expect(item.ko.category, item.id).toMatch(/[가-힣]/);
    }
    const byName = (name: string) => CATALOG.find((i) => i.name === name);
    expect(byName("Pour-Over Coffee Starter Kit (Gift Edition)")?.ko).toEqual({
      name: "핸드드립 커피 스타터 키트 (선물용)",
      category: "커피·차",
    });
    expect(byName("Coffee of the Month Club (3 months)")?.ko.name).toBe("이달의 원두 정기배송 (3개월)");
    expect(byName("Stoneware Travel Mug (Set of 2)")?.ko.name).toBe("스톤웨어 텀블러 (2개 세트)");
    expect(byName("Spa Day Voucher (for one)")?.ko.name).toBe("스파 이용권 (1인용)");
    expect(byName("Bath Bomb Collection (Large)")?.ko.name).toBe("배스밤 컬렉션 (대)");
    expect(byName("Stoneware Travel Mug (Set of 2)")?.id).toBe("stoneware-travel-mug-set-of-2");
    // one Korean name per product, as in English
    expect(new Set(CATALOG.map((i) => i.ko.name)).size).toBe(CATALOG.length);
  });
});
