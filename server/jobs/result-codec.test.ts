/**
 * Stored result chunks: what goes in comes out, shared lists and gifts are written once, chunks in
 * the first shape are still read, and anything that is not a chunk is refused.
 */
import type { Gift, PersonResult } from "../../shared/tools.js";
import { decodeChunk, encodeChunk } from "./result-codec.js";

const mug: Gift = { id: "mug", name: "Mug", price: 12, category: "Kitchen", reason: "Likes coffee" };
const card: Gift = { id: "card", name: "Card", price: 10, category: "General", reason: 'Fits a "small" budget' };
const gifts = [mug];
const interests = ["coffee", "tea"];
const people: PersonResult[] = [
  { row: 2, name: 'Zoë, "Z"', department: "R&D", interests, budget: 30, gifts },
  { row: 3, name: "李", department: null, interests, budget: 12.5, gifts },
  { row: 5, name: "Lee", department: "Sales", interests: [], budget: 20, gifts: [] },
  { row: 6, name: "Kim", department: "Sales", interests: ["tea"], budget: 20, gifts: [card, mug] },
];

describe("result chunks", () => {
  it("round-trip people, slice by slice", () => {
    expect(decodeChunk(encodeChunk(people, 0, 4))).toEqual(people);
    expect(decodeChunk(encodeChunk(people, 1, 3))).toEqual(people.slice(1, 3));
    expect(decodeChunk(encodeChunk(people, 0, 0))).toEqual([]);
  });

  it("write a list shared by several people once, and a gift in several lists once", () => {
    const body = encodeChunk(people, 0, 4);
    expect(body.split('"Likes coffee"')).toHaveLength(2);
    expect(body.split('"tea"')).toHaveLength(3); // in two lists: ["coffee","tea"] and ["tea"]
    const decoded = decodeChunk(body);
    expect(decoded[1].gifts).toBe(decoded[0].gifts);
    expect(decoded[3].gifts[1]).toBe(decoded[0].gifts[0]);
  });

  it("still read chunks in the first shape, with gift lists written out", () => {
    const v1 = JSON.stringify({ interests: [interests], gifts: [gifts], people: [[2, "A", null, 0, 30, 0]] });
    expect(decodeChunk(v1)).toEqual([{ row: 2, name: "A", department: null, interests, budget: 30, gifts }]);
  });

  it.each([
    ["not JSON", "{"],
    ["another shape", JSON.stringify({ people: [] })],
    [
      "a missing list",
      JSON.stringify({ v: 2, interests: [], gifts: [], lists: [], people: [[2, "A", null, 0, 10, 0]] }),
    ],
    [
      "a missing gift",
      JSON.stringify({ v: 2, interests: [[]], gifts: [], lists: [[0]], people: [[2, "A", null, 0, 10, 0]] }),
    ],
    ["a first-shape missing list", JSON.stringify({ interests: [], gifts: [], people: [[2, "A", null, 0, 10, 0]] })],
    ["an unknown version", JSON.stringify({ v: 3, interests: [], gifts: [], lists: [], people: [] })],
  ])("refuse %s", (_name, body) => {
    expect(() => decodeChunk(body)).toThrow();
  });
});
