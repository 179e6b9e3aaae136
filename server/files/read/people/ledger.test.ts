/**
 * The ledger: every row a person or a skipped row, in order; empty rows only between rows with
 * text; a person's later rows skipped as repeats of the first: by ID, by every field, or merged
 * namesakes when asked, other namesakes kept and flagged.
 */
import type { SkippedRow } from "../../../../shared/files.js";
import { createLedger } from "./ledger.js";
import { newPerson, type Person } from "./rows.js";

const person = (row: number, name: string, department = "") => newPerson(row, name, department, "", 10);
const empty = (row: number): SkippedRow => ({ row, reason: "the row is empty" });

it("settles each row once, in order, and drops the empty rows at the end", () => {
  const fates: (Person | SkippedRow)[] = [];
  const extras: string[] = [];
  const ledger = createLedger<string>((fate, extra) => {
    fates.push(fate);
    extras.push(extra);
  });
  ledger.add(person(2, "Kim", "Sales"), "a");
  ledger.add(empty(3), "b");
  ledger.add({ row: 4, reason: "it has no name" }, "c");
  ledger.add(person(5, "kim ", "SALES"), "d");
  ledger.add(empty(6), "e");
  ledger.add(person(7, "Lee"), "f");
  ledger.add(empty(8), "g");
  ledger.add(empty(9), "h");
  ledger.end();
  expect(fates.map((f) => ("reason" in f ? `${f.row} ${f.reason}` : `${f.row} ${f.name}`))).toEqual([
    "2 Kim",
    "3 the row is empty",
    "4 it has no name",
    "5 it repeats row 2",
    "6 the row is empty",
    "7 Lee",
  ]);
  expect(extras).toEqual(["a", "b", "c", "d", "e", "f"]);
});

/** The people and skipped rows a ledger settles for `rows`, and the namesakes it noted. */
function settle(rows: Person[], options: { mergeDuplicates?: boolean } = {}) {
  const out: string[] = [];
  const ledger = createLedger<undefined>(
    (fate) => out.push("reason" in fate ? `${fate.row} ${fate.reason}` : `${fate.row} ${fate.name}`),
    options,
  );
  for (const row of rows) ledger.add(row, undefined);
  ledger.end();
  return { out, duplicates: ledger.duplicates() };
}

const staff = (row: number, name: string, department: string, interests: string, budget = 10, id = "") =>
  newPerson(row, name, department, interests, budget, { id });

describe("who is who", () => {
  it("knows people by their ID when rows have one: the same ID is a repeat, different IDs two people", () => {
    const { out, duplicates } = settle([
      staff(2, "김민준", "개발팀", "등산", 10, "1001"),
      staff(3, "김민준", "개발팀", "커피", 10, "1002"),
      staff(4, "김민준", "개발팀", "등산", 10, "1002"),
      staff(5, "Kim Minjun", "Dev", "tea", 10, " 1001 "),
      staff(6, "김민준", "개발팀", "등산", 10, "1003"),
    ]);
    expect(out).toEqual([
      "2 김민준",
      "3 김민준",
      '4 its ID "1002" repeats row 3',
      '5 its ID "1001" repeats row 2',
      "6 김민준",
    ]);
    expect(duplicates).toEqual({ groups: [], count: 0 });
  });

  it("without an ID, takes rows that agree in every field as one person, case, spaces and Unicode form aside", () => {
    const { out } = settle([
      staff(2, "Kim", "Sales", "coffee; tea", 30),
      staff(3, " KIM ", "sales", "Coffee ;Tea", 30),
      staff(4, "Ｋｉｍ", "Sales", "coffee; tea", 30), // full-width letters, as some Korean IMEs type them
      staff(5, "Kim", "Sales", "coffee; tea", 31),
    ]);
    expect(out.slice(0, 3)).toEqual(["2 Kim", "3 it repeats row 2", "4 it repeats row 2"]);
    expect(out[3]).toBe("5 Kim");
  });

  it("tells a budget written from one left to the default", () => {
    const given = staff(2, "Kim", "Sales", "tea", 40);
    const left = newPerson(3, "Kim", "Sales", "tea", 40, { budgetGiven: false });
    expect(settle([given, left]).out).toEqual(["2 Kim", "3 Kim"]);
  });

  it("keeps namesakes who differ in another field as two people, and flags them", () => {
    const { out, duplicates } = settle([
      staff(2, "김민준", "개발팀", "등산"),
      staff(3, "이서연", "개발팀", "독서"),
      staff(4, "김민준", "개발팀", "커피"),
      staff(5, "김민준", "영업팀", "골프"),
      staff(6, "김민준", "개발팀 ", "영화"),
      staff(7, "김민준", "개발팀", "커피"),
    ]);
    expect(out).toEqual(["2 김민준", "3 이서연", "4 김민준", "5 김민준", "6 김민준", "7 it repeats row 4"]);
    expect(duplicates).toEqual({ groups: [{ rows: [2, 4, 6], name: "김민준", department: "개발팀" }], count: 1 });
  });

  it("merges namesakes when asked: the first row kept, the others skipped as merged", () => {
    const { out, duplicates } = settle(
      [
        staff(2, "김민준", "개발팀", "등산"),
        staff(3, "김민준", "개발팀", "커피"),
        staff(4, "김민준", "개발팀", "등산"),
        staff(5, "김민준", "개발팀", "커피"), // a copy of a merged row is merged too
      ],
      { mergeDuplicates: true },
    );
    expect(out).toEqual([
      "2 김민준",
      "3 it was merged with row 2, which has the same name and department",
      "4 it repeats row 2",
      "5 it was merged with row 2, which has the same name and department",
    ]);
    expect(duplicates.count).toBe(0);
  });

  it("counts every group of namesakes but keeps only the first few, with their first rows", () => {
    const rows: Person[] = [];
    for (let g = 0; g < 50; g++) for (let k = 0; k < 8; k++) rows.push(staff(rows.length + 2, `P${g}`, "Ops", `i${k}`));
    const { duplicates, out } = settle(rows);
    expect(out.every((line) => !line.includes("repeat"))).toBe(true);
    expect(duplicates.count).toBe(50);
    expect(duplicates.groups.length).toBeLessThan(50);
    expect(duplicates.groups[0]).toEqual({ rows: [2, 3, 4, 5, 6], name: "P0", department: "Ops" });
  });

  it("settles 200,000 rows with one namesake in every two", () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => staff(i + 2, `Person ${i >> 1}`, "Ops", `hobby ${i}`));
    const { out, duplicates } = settle(rows);
    expect(out).toHaveLength(200_000);
    expect(duplicates.count).toBe(100_000);
  });
});
