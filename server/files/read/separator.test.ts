/**
 * The separator of a staff list: its header decides when one is found among the first lines, so
 * rows whose interests hold many ";" or "|" do not outvote it; otherwise how regularly it splits.
 */
import { detectSeparator } from "./separator.js";

describe("detectSeparator", () => {
  it("takes the header's separator, however many ; and | the rows hold", () => {
    const row = (i: number) => `Person ${i},Sales,${Array.from({ length: 50 }, (_, k) => `i${k}`).join(";")},30`;
    const text = ["name,department,interests,budget", ...Array.from({ length: 30 }, (_, i) => row(i))].join("\n");
    expect(detectSeparator(text)).toBe(",");
    expect(detectSeparator(`직원 명단\n이름;부서;관심사\n김;영업;커피|등산`)).toBe(";");
    expect(detectSeparator(`"Full name"\t"Hobbies"\nAda\tbooks, tea`)).toBe("\t");
  });

  it("falls back to how regularly each candidate splits the lines when no header is known", () => {
    expect(detectSeparator("a;b;c\n1;2;3\n4;5;6")).toBe(";");
    expect(detectSeparator("a|b\n1|2")).toBe("|");
    expect(detectSeparator("just one column\nvalue")).toBe(",");
  });
});
