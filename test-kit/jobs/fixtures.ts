/**
 * Test data for the job system, free of any test framework so that a plain child process can use
 * it too: a small deterministic gift matcher and two callers (CSVs come from test-kit/).
 */
import type { Gift } from "../../shared/tools.js";
import type { MatchGifts } from "../../server/gifts/matcher.js";

const CATALOG = [
  { id: "mug", name: "Coffee mug", price: 15, category: "Kitchen", tags: ["coffee", "tea"] },
  { id: "beans", name: "Coffee beans", price: 30, category: "Food", tags: ["coffee"] },
  { id: "boots", name: "Hiking socks", price: 25, category: "Outdoors", tags: ["hiking"] },
  { id: "novel", name: "A novel", price: 20, category: "Books", tags: ["books", "reading"] },
  { id: "vinyl", name: "A record", price: 40, category: "Music", tags: ["music"] },
  { id: "mat", name: "Yoga mat", price: 45, category: "Sport", tags: ["yoga"] },
  { id: "card", name: "Gift card", price: 10, category: "General", tags: [] },
];

/** Ranks the small catalog by shared interests, then price, never over budget. Pure. */
export const testMatch: MatchGifts = ({ budget, interests, count }) => {
  const wanted = interests.map((i) => i.toLowerCase());
  return CATALOG.filter((g) => g.price <= budget)
    .map((g) => ({ g, hits: g.tags.filter((t) => wanted.includes(t)) }))
    .sort((a, b) => b.hits.length - a.hits.length || b.g.price - a.g.price || (a.g.id < b.g.id ? -1 : 1))
    .slice(0, count)
    .map(({ g, hits }): Gift => ({
      id: g.id,
      name: g.name,
      price: g.price,
      category: g.category,
      reason: hits.length > 0 ? `Likes ${hits.join(" and ")}` : `Fits a $${budget} budget`,
    }));
};

export const ALICE = { subject: "alice", sessionId: "s-alice" };
export const BOB = { subject: "bob", sessionId: "s-bob" };
