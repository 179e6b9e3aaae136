/**
 * Remembered matcher answers: one call per distinct request, one shared array, bounded memory.
 */
import type { MatchRequest } from "../job-service.js";
import { createAnswers } from "./answers.js";

describe("createAnswers", () => {
  const calls: MatchRequest[] = [];
  const match = (r: MatchRequest) => {
    calls.push(r);
    return [{ id: `g${calls.length}`, name: "G", price: 1, category: "c", reason: "r" }];
  };
  const coffee = ["coffee"];
  const ask = (over: Partial<MatchRequest> = {}): MatchRequest => ({ occasion: "o", budget: 10, interests: coffee, department: "Sales", count: 3, ...over });
  beforeEach(() => void calls.splice(0));

  it("asks the matcher once per distinct request and shares its answer", () => {
    const answers = createAnswers(match, 100);
    const a = answers(ask());
    expect(answers(ask())).toBe(a);
    expect(answers(ask({ budget: 11 }))).not.toBe(a);
    expect(answers(ask({ department: undefined }))).not.toBe(a);
    expect(answers(ask({ interests: ["coffee"] }))).not.toBe(a); // another list, even if equal
    expect(calls).toHaveLength(4);
  });

  it("forgets everything past its limit, and still answers", () => {
    const answers = createAnswers(match, 2);
    answers(ask({ budget: 1 }));
    answers(ask({ budget: 2 }));
    answers(ask({ budget: 3 }));
    expect(answers(ask({ budget: 1 })).length).toBe(1);
    expect(calls).toHaveLength(4);
  });
});
