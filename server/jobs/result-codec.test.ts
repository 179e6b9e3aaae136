/**
 * Stored result chunks: what goes in comes out, shared lists are written once, and anything
 * that is not a chunk is refused.
 */
import type { Gift, PersonResult } from "../../shared/tools.js";
import { decodeChunk, encodeChunk } from "./result-codec.js";

const gifts: Gift[] = [{ id: "mug", name: "Mug", price: 12, category: "Kitchen", reason: "Likes coffee" }];
const interests = ["coffee", "tea"];
const people: PersonResult[] = [
  { row: 2, name: "Zoë, \"Z\"", department: "R&D", interests, budget: 30, gifts },
  { row: 3, name: "李", department: null, interests, budget: 12.5, gifts },
  { row: 5, name: "Lee", department: "Sales", interests: [], budget: 20, gifts: [] },
];

describe("result chunks", () => {
  it("round-trip people, slice by slice", () => {
    expect(decodeChunk(encodeChunk(people, 0, 3))).toEqual(people);
    expect(decodeChunk(encodeChunk(people, 1, 3))).toEqual(people.slice(1));
    expect(decodeChunk(encodeChunk(people, 0, 0))).toEqual([]);
  });

  it("write a list shared by several people once", () => {
    const body = encodeChunk(people, 0, 3);
    expect(body.split('"Likes coffee"')).toHaveLength(2);
    expect(body.split('"tea"')).toHaveLength(2);
  });

  it.each([
    ["not JSON", "{"],
    ["another shape", JSON.stringify({ people: [] })],
    ["a missing list", JSON.stringify({ interests: [], gifts: [], people: [[2, "A", null, 0, 10, 0]] })],
  ])("refuse %s", (_name, body) => {
    expect(() => decodeChunk(body)).toThrow();
  });
});
