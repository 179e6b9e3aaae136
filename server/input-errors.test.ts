import * as z from "zod/mini";
import { SuggestGiftsInput } from "../shared/tools.js";
import { describeIssues } from "./input-errors.js";

function problems(schema: z.ZodMiniType, input: unknown): string[] {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error("expected the input to fail");
  return describeIssues(parsed.error.issues, input);
}

describe("describeIssues", () => {
  it("names each bad field with what was expected and what came", () => {
    expect(problems(SuggestGiftsInput, { budget: "fifty", count: 2.5 })).toEqual([
      "`occasion` is required (a string)",
      "`budget` must be a number, got a string",
      "`count` must be a whole number, got a fraction",
    ]);
  });

  it("explains bounds, empty strings, enums and nested paths", () => {
    expect(problems(SuggestGiftsInput, { occasion: "", budget: 0, count: 21 })).toEqual([
      "`occasion` must not be empty",
      "`budget` must be greater than 0",
      "`count` must be at most 20",
    ]);
    const nested = z.object({ people: z.array(z.object({ level: z.enum(["a", "b"]) })) });
    expect(problems(nested, { people: [{ level: "c" }] })).toEqual(['`people[0].level` must be one of "a", "b"']);
    expect(problems(nested, [])).toEqual(["the value must be an object, got an array"]);
  });
});
