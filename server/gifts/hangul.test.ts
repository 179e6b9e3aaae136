import fc from "fast-check";
import { createHangulSplitter, endsInConsonant } from "./hangul.js";
import { words } from "./vocabulary.js";

const split = createHangulSplitter([
  "등산",
  "커피",
  "캠핑",
  "보드게임",
  "게임",
  "개발",
  "책",
  "빵",
  "차",
  "개",
  "보기",
]);

describe("Korean word splitting", () => {
  it.each([
    ["등산과", ["등산"]],
    ["커피를", ["커피"]],
    ["캠핑이랑", ["캠핑"]],
    ["등산하기를", ["등산"]],
    ["캠핑광", ["캠핑"]],
    ["커피덕후", ["커피"]],
    ["보드게임을", ["보드게임"]],
    ["캠핑이랑등산", ["캠핑", "등산"]],
    ["주말등산", ["등산"]],
    ["캠핑장비", ["캠핑"]],
    ["개발팀", ["개발"]],
  ])("takes particles and endings off what they follow: %s", (run, expected) => {
    expect(split(run)).toEqual(expected);
  });

  it("finds a one-syllable word only on its own or before endings, never inside another word", () => {
    expect(split("책")).toEqual(["책"]);
    expect(split("책을")).toEqual(["책"]);
    expect(split("빵굽기")).toEqual(["빵"]);
    expect(split("차마시기")).toEqual(["차"]);
    expect(split("개를")).toEqual(["개"]);
    expect(split("차분함")).toEqual(["차분"]);
    expect(split("책상")).toEqual(["책상"]);
    expect(split("개인")).toEqual(["개인"]);
  });

  it("keeps an unknown word without its endings, drops endings alone, and ignores words that are endings", () => {
    expect(split("서핑을")).toEqual(["서핑"]);
    expect(split("클라이밍하는")).toEqual(["클라이밍"]);
    expect(split("좋아하는")).toEqual([]);
    expect(split("하는")).toEqual([]);
    expect(split("보기")).toEqual([]);
  });

  it("reads a cell of 30,000 syllables without spaces (a linear reading; a quadratic one would time out)", () => {
    expect(split("등산과커피를".repeat(5_000))).toHaveLength(10_000);
  });

  it("never throws and returns Hangul substrings of its input", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."등산과커피를캠핑하는게임책빵차개요가족") }), (run) => {
        fc.pre(run.length > 0);
        for (const word of split(run)) expect(run).toContain(word);
      }),
    );
  });

  it("tells a final consonant, which picks 을/과 over 를/와", () => {
    expect(["등산", "커피", "골프", "책", "전자기기"].map(endsInConsonant)).toEqual([true, false, false, true, false]);
  });
});

describe("words, in English, Korean and both", () => {
  it("splits each script its own way, in order", () => {
    expect(words("등산과 커피를 좋아하는 동료")).toEqual(["등산", "커피", "동료"]);
    expect(words("커피 and Hiking")).toEqual(["커피", "and", "hiking"]);
    expect(words("PC게임, 5k")).toEqual(["pc", "게임", "5k"]);
    expect(words("Books & board games")).toEqual(["book", "&", "board", "game"]);
  });
});
