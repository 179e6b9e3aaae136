import fc from "fast-check";
import { CATALOG, type CatalogItem } from "./catalog.js";
import { createMatcher, matchGifts } from "./matcher.js";
import { TAG_WORDS } from "./vocabulary.js";

const CHEAPEST_GIFT = CATALOG.reduce((a, b) => (b.price < a.price ? b : a));
const byId = new Map(CATALOG.map((item) => [item.id, item]));
const item = (id: string): CatalogItem => {
  const found = byId.get(id);
  if (!found) throw new Error(`no catalog item ${id}`);
  return found;
};

describe("matchGifts keeps within bounds", () => {
  it("never suggests a gift over budget, nor more gifts than asked, nor the same gift twice", () => {
    const tags = Object.keys(TAG_WORDS);
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 600, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.constantFrom(...tags), { maxLength: 4 }),
        fc.constantFrom("birthday", "farewell", "Secret Santa", "new baby", "something else"),
        fc.option(fc.string(), { nil: undefined }),
        (budget, count, interests, occasion, text) => {
          const gifts = matchGifts({ occasion, budget, interests, text, count });
          expect(gifts.length).toBeLessThanOrEqual(count);
          expect(new Set(gifts.map((g) => g.id)).size).toBe(gifts.length);
          for (const gift of gifts) {
            expect(gift.price).toBeLessThanOrEqual(budget);
            expect(gift.price).toBe(item(gift.id).price);
            expect(gift.reason).toMatch(/\$\d/);
          }
          if (budget >= CHEAPEST_GIFT.price) expect(gifts.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("returns nothing when the budget is under the cheapest gift", () => {
    expect(
      matchGifts({ occasion: "birthday", budget: CHEAPEST_GIFT.price - 0.01, interests: ["coffee"], count: 5 }),
    ).toEqual([]);
    expect(
      matchGifts({ occasion: "birthday", budget: CHEAPEST_GIFT.price, interests: [], count: 5 }).map((g) => g.id),
    ).toEqual([CHEAPEST_GIFT.id]);
  });

  it("is deterministic", () => {
    const request = {
      occasion: "holiday",
      budget: 80,
      interests: ["tea", "yoga"],
      department: "Design",
      text: "loves ceramics",
      count: 6,
    };
    expect(matchGifts(request)).toEqual(matchGifts(request));
  });
});

describe("matchGifts reads the person and the occasion", () => {
  it("puts gifts for a stated interest first and says so in the reason", () => {
    const gifts = matchGifts({ occasion: "birthday", budget: 60, interests: ["coffee"], count: 3 });
    for (const gift of gifts) {
      expect(item(gift.id).tags).toContain("coffee");
      expect(gift.reason).toContain("interest in coffee");
      expect(gift.reason).toContain("suits a birthday");
    }
  });

  it("understands synonyms, plurals and two-word phrases in interests and free text", () => {
    const [espresso] = matchGifts({ occasion: "thank you", budget: 40, interests: ["Espressos"], count: 1 });
    expect(item(espresso.id).tags).toContain("coffee");
    const [games] = matchGifts({ occasion: "birthday", budget: 60, interests: ["board games"], count: 1 });
    expect(item(games.id).tags).toContain("board-games");
    const [fromText] = matchGifts({
      occasion: "farewell",
      budget: 100,
      interests: [],
      text: "She is an avid marathon runner",
      count: 1,
    });
    expect(item(fromText.id).tags).toContain("running");
  });

  it("maps occasion wording to the catalog's occasions", () => {
    const [gift] = matchGifts({ occasion: "Secret Santa exchange", budget: 30, interests: ["puzzles"], count: 1 });
    expect(item(gift.id).occasions).toContain("holiday");
    expect(gift.reason).toContain("suits the holidays");
    const [baby] = matchGifts({ occasion: "baby shower", budget: 50, interests: [], count: 1 });
    expect(item(baby.id).occasions).toContain("new-baby");
  });

  it("weighs stated interests above what the department suggests", () => {
    const [first] = matchGifts({
      occasion: "birthday",
      budget: 70,
      interests: ["yoga"],
      department: "Engineering",
      count: 3,
    });
    expect(item(first.id).tags).toContain("yoga");
    const deptOnly = matchGifts({
      occasion: "birthday",
      budget: 70,
      interests: [],
      department: "Engineering",
      count: 2,
    });
    expect(deptOnly[0].reason).toContain("someone in Engineering");
  });
});

describe("matchGifts ranks", () => {
  it("puts a gift for the interest (its first tag) before one that only touches it, whatever the occasion", () => {
    // coffee makers carry `cooking` as a side tag; a cook gets kitchen gifts first
    const gifts = matchGifts({ occasion: "birthday", budget: 50, interests: ["cooking"], count: 3 });
    for (const gift of gifts) expect(item(gift.id).tags[0]).toBe("cooking");
    // Music & Audio does not list promotions, Tech & Gadgets does: the vinyl still comes first
    const [first] = matchGifts({ occasion: "promotion", budget: 120, interests: ["vinyl"], count: 1 });
    expect(item(first.id).tags[0]).toBe("music");
  });

  it("reaches for a related interest when nothing for the stated one fits the budget, and names the stated one", () => {
    expect(CATALOG.filter((i) => i.tags.includes("yoga") && i.price <= 45)).toEqual([]);
    const gifts = matchGifts({
      occasion: "thank you",
      budget: 45,
      interests: ["yoga"],
      department: "Marketing",
      count: 3,
    });
    for (const gift of gifts) {
      expect(item(gift.id).tags.some((t) => ["fitness", "wellness", "meditation"].includes(t))).toBe(true);
      expect(gift.reason).toMatch(
        /^Goes well with their interest in yoga; suits a thank-you; \$\d+ of the \$45 budget\.$/,
      );
    }
  });

  it("lets no pile of department tags pass a stated interest", () => {
    // the travel mug carries coffee, tea and travel, all three of which Sales suggests
    const gifts = matchGifts({
      occasion: "holiday",
      budget: 25,
      interests: ["chocolate"],
      department: "Sales",
      count: 3,
    });
    expect(gifts).toHaveLength(3);
    for (const gift of gifts) expect(gift.reason).toMatch(/^Goes well with their interest in chocolate;/);
  });

  it("offers one edition of a product and spreads equally good picks over categories", () => {
    const gifts = matchGifts({ occasion: "birthday", budget: 100, interests: [], count: 6 });
    const bases = gifts.map((g) => g.name.replace(/ \([^)]*\)$/, ""));
    expect(new Set(bases).size).toBe(bases.length);
    expect(new Set(gifts.map((g) => g.category)).size).toBe(gifts.length);
    const coffee = matchGifts({ occasion: "birthday", budget: 500, interests: ["coffee"], count: 8 });
    expect(new Set(coffee.map((g) => g.name.replace(/ \([^)]*\)$/, ""))).size).toBe(coffee.length);
  });

  it("prefers the gift that uses more of the budget when the fit is equal", () => {
    const gift = (id: string, name: string, category: string, price: number, tag: string): CatalogItem => ({
      ...{ id, name, category, price, tags: [tag], occasions: ["birthday"] },
      prices: { USD: price, KRW: price * 1000, EUR: price, JPY: price * 100, GBP: price },
      ko: { name, category },
    });
    const catalog = [
      gift("a", "Mug", "Kitchen", 10, "coffee"),
      gift("b", "Grinder", "Tools", 30, "coffee"),
      gift("c", "Kettle", "Home", 45, "tea"),
    ];
    const match = createMatcher(catalog);
    expect(match({ occasion: "birthday", budget: 40, interests: ["coffee"], count: 3 }).map((g) => g.id)).toEqual([
      "b",
      "a",
    ]);
    expect(match({ occasion: "birthday", budget: 50, interests: ["coffee"], count: 3 }).map((g) => g.id)).toEqual([
      "b",
      "a",
      "c",
    ]);
  });
});
