/**
 * Interest cells as people type them into staff lists, split into interests, and counted the same
 * way for the per-person limit.
 */
import { countInterests, splitInterests } from "./interests.js";

describe("splitInterests", () => {
  it.each([
    ["등산, 커피", ["등산", "커피"]],
    ["등산,커피", ["등산", "커피"]],
    ["등산/커피", ["등산", "커피"]],
    ["등산 / 커피", ["등산", "커피"]],
    ["등산·커피", ["등산", "커피"]],
    ["등산ㆍ커피", ["등산", "커피"]],
    ["등산、커피", ["등산", "커피"]],
    ["등산，커피", ["등산", "커피"]],
    ["등산／커피", ["등산", "커피"]],
    ["hiking; coffee", ["hiking", "coffee"]],
    ["hiking | coffee", ["hiking", "coffee"]],
    ["Hiking\nCoffee", ["Hiking", "Coffee"]],
    ["Hiking\r\nCoffee\r\n", ["Hiking", "Coffee"]],
    ["rock & roll", ["rock & roll"]],
    ["R&B, jazz", ["R&B", "jazz"]],
    ["AC/DC", ["AC/DC"]],
    ["AC/DC, vinyl", ["AC/DC", "vinyl"]],
    ["UX/UI", ["UX/UI"]],
    ["1,000-piece puzzles", ["1,000-piece puzzles"]],
    ["1,000-piece puzzles, tea", ["1,000-piece puzzles", "tea"]],
    ["yoga 24/7", ["yoga 24/7"]],
    ["영화 감상, 맛집 탐방", ["영화 감상", "맛집 탐방"]],
    ["Food, wine and travel; hiking", ["Food, wine and travel", "hiking"]],
    ["reading/writing | coffee", ["reading/writing", "coffee"]],
    ["coffee, , tea,", ["coffee", "tea"]],
    ["Coffee, coffee / COFFEE", ["Coffee"]],
    // only the joined phrase is an interest the vocabulary knows ("self care", "zero waste")
    ["self/care", ["self/care"]],
    ["zero/waste, tea", ["zero/waste", "tea"]],
    // both parts are interests: split, though the joined words hold one too
    ["hiking/coffee", ["hiking", "coffee"]],
  ])("reads %j as %j", (cell, interests) => {
    expect(splitInterests(cell)).toEqual(interests);
  });

  it("splits on ; and |, trims, drops empties and repeats (first spelling wins)", () => {
    expect(splitInterests(" Coffee; hiking | coffee ;; |Ünïcode ✨ ")).toEqual(["Coffee", "hiking", "Ünïcode ✨"]);
  });

  it("gives an empty list for nothing", () => {
    expect(splitInterests("")).toEqual([]);
    expect(splitInterests(" ; | ")).toEqual([]);
    expect(splitInterests(" , / ")).toEqual([]);
  });

  it("keeps every distinct item of a list of 200,000, and drops repeats whatever their case", () => {
    const items = Array.from({ length: 100_000 }, (_, i) => `w${i}`);
    const text = [...items, ...items.map((w) => w.toUpperCase())].join(";");
    const out = splitInterests(text);
    expect(out).toHaveLength(100_000);
    expect(out[99_999]).toBe("w99999");
  });

  it("splits a long comma-separated cell into all its items", () => {
    const items = Array.from({ length: 5_000 }, (_, i) => `hobby ${i}`);
    expect(splitInterests(items.join(", "))).toEqual(items);
  });
});

describe("countInterests", () => {
  it.each([
    ["", 0],
    ['  "" ; ', 0],
    ["등산, 커피", 2],
    ["등산/커피/등산", 3],
    ["hiking; coffee; hiking", 3],
    ["Food, wine and travel; hiking", 2],
    ["1,000-piece puzzles", 1],
    ["AC/DC", 1],
    ["Hiking\nCoffee", 2],
  ])("counts %j as %d items, as splitInterests reads them (repeats counted)", (cell, n) => {
    expect(countInterests(cell)).toBe(n);
    expect(new Set(splitInterests(cell).map((s) => s.toLowerCase())).size).toBeLessThanOrEqual(n);
  });
});
