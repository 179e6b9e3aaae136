/**
 * Remembered matcher answers: one call per distinct request however its interests are written,
 * one shared array, one object per distinct gift, and bounded memory that keeps what is in use.
 */
import type { Gift } from "../../../shared/tools.js";
import type { MatchRequest } from "../../gifts/matcher.js";
import { canonicalInterests, createAnswers } from "./answers.js";

describe("createAnswers", () => {
  const calls: MatchRequest[] = [];
  /** Answers with a gift whose reason names the interests, and one plain gift that never changes. */
  const match = (r: MatchRequest): Gift[] => {
    calls.push(r);
    return [
      { id: `g${calls.length}`, name: "G", price: 1, category: "c", reason: r.interests.join("+") },
      { id: "card", name: "Gift card", price: 10, category: "General", reason: "Fits" },
    ];
  };
  const ask = (over: Partial<MatchRequest> = {}): MatchRequest => ({
    occasion: "o",
    budget: 10,
    interests: ["coffee", "tea"],
    department: "Sales",
    count: 3,
    ...over,
  });
  beforeEach(() => void calls.splice(0));

  it("asks the matcher once per request, whatever the order, case or repeats of its interests", () => {
    const answers = createAnswers(match, 100);
    const a = answers(ask());
    expect(answers(ask({ interests: ["Tea", " coffee", "TEA", ""] }))).toBe(a);
    expect(answers(ask({ interests: ["tea", "coffee"] }))).toBe(a);
    expect(calls).toHaveLength(1);
    // the matcher hears the canonical form, so an answer depends on its key only
    expect(calls[0].interests).toEqual(["coffee", "tea"]);
  });

  it("tells apart requests that differ in anything the matcher reads", () => {
    const answers = createAnswers(match, 100);
    const a = answers(ask());
    const others = [
      ask({ budget: 11 }),
      ask({ department: undefined }),
      ask({ department: "" }),
      ask({ department: "sales" }),
      ask({ occasion: "p" }),
      ask({ count: 2 }),
      ask({ text: "likes tea" }),
      ask({ interests: ["coffee"] }),
      ask({ interests: ["coffee tea"] }),
      ask({ interests: [] }),
      ask({ locale: "ko" }),
    ];
    const answered = others.map((r) => answers(r));
    for (const b of answered) expect(b).not.toBe(a);
    expect(new Set(answered).size).toBe(others.length);
    expect(calls).toHaveLength(1 + others.length);
    // English unless said otherwise
    expect(answers(ask({ locale: "en" }))).toBe(a);
  });

  it("gives equal gifts of different answers one object", () => {
    const answers = createAnswers(match, 100);
    const a = answers(ask({ budget: 1 }));
    const b = answers(ask({ budget: 2 }));
    expect(a[1]).toBe(b[1]);
    expect(a[0]).not.toBe(b[0]);
  });

  it("keeps what is asked again and forgets the rest past its limit", () => {
    const answers = createAnswers(match, 10);
    const interests = ["coffee"]; // as the extract stage does: one array per distinct text
    const first = answers(ask({ interests, budget: 1 }));
    answers(ask({ interests, budget: 2 }));
    for (let budget = 3; budget <= 12; budget++) {
      expect(answers(ask({ interests, budget: 1 }))).toBe(first); // in use all along
      answers(ask({ interests, budget }));
    }
    const asked = calls.length;
    expect(answers(ask({ interests, budget: 2 }))).toHaveLength(2);
    expect(calls).toHaveLength(asked + 1);
  });

  it("forgets everything when too many distinct requests come, and still answers right", () => {
    const answers = createAnswers(match, 2);
    const first = answers(ask({ interests: ["tea"] }));
    for (let i = 0; i < 50; i++) answers(ask({ interests: [`hobby ${i}`], budget: i }));
    const again = answers(ask({ interests: ["TEA"] }));
    expect(again).not.toBe(first);
    expect(again[0].reason).toBe("tea");
    expect(calls).toHaveLength(52);
  });
});

describe("canonicalInterests", () => {
  it("lower-cases, trims, drops empties and repeats, and sorts", () => {
    expect(canonicalInterests([" Tea", "coffee", "TEA", "", "  "])).toEqual(["coffee", "tea"]);
    expect(canonicalInterests([])).toEqual([]);
  });
});
