/**
 * The ledger: every row a person or a skipped row, in order; empty rows only between rows with
 * text; a person's later rows skipped as repeats of the first.
 */
import type { SkippedRow } from "../../../shared/files.js";
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
