/** One employee row, read from CSV fields or the `employees` list: a person, or why it was skipped. */
import type { SkippedRow } from "../../../../shared/files.js";
import type { Currency } from "../../../../shared/money.js";
import { readMoney } from "../../../../shared/read-money.js";
import type { Gift } from "../../../../shared/tools.js";
import type { CsvColumns } from "../csv/inspect.js";

/** A person as the stages fill it in (parse, then extract `interests`, then match `gifts`). */
export type Person = {
  /** Where the person is: the spreadsheet row (header = 1), or the 1-based place in `employees`. */
  row: number;
  name: string;
  department: string | null;
  interestsText: string;
  interests: string[];
  budget: number;
  /** Whether the row wrote its budget (the job's default otherwise). */
  budgetGiven: boolean;
  /** The row's ID (사번), trimmed, or null: the person's identity when set. */
  id: string | null;
  gifts: Gift[];
};

const NONE: never[] = [];

/** A person with the later stages' fields empty; department and ID trimmed, "" as null. */
export function newPerson(
  row: number,
  name: string,
  department: string,
  interestsText: string,
  budget: number,
  { budgetGiven = true, id = "" }: { budgetGiven?: boolean; id?: string } = {},
): Person {
  return {
    row,
    name,
    department: department.trim() || null,
    interestsText,
    interests: NONE,
    budget,
    budgetGiven,
    id: id.trim() || null,
    gifts: NONE,
  };
}

/** The reason an empty row is skipped; one that only blank rows follow is not a row at all. */
export const EMPTY_ROW = "the row is empty";

/** Reads one CSV record: a person, or the row skipped with why. Budgets are in the job's `currency`. */
export function readRecord(
  fields: string[],
  row: number,
  columns: CsvColumns,
  defaultBudget: number,
  currency: Currency = "USD",
): Person | SkippedRow {
  const at = columns.row === -1 ? row : (rowNumber(fields[columns.row]) ?? row);
  const skip = (reason: string) => ({ row: at, reason });
  const empty = fields.every((f, i) => i === columns.row || f.trim() === "");
  if (fields.length !== columns.width) {
    if (empty) return skip(EMPTY_ROW);
    const hint = fields.length > columns.width ? "; put quotes around values that contain commas" : "";
    return skip(`it has ${fields.length} fields but the header has ${columns.width}${hint}`);
  }
  const skipped = columns.skip === -1 ? "" : fields[columns.skip].trim();
  if (skipped !== "") return skip(skipped);
  const name = fields[columns.name].trim();
  if (name === "") return skip(empty ? EMPTY_ROW : "it has no name");
  const field = (index: number) => (index === -1 ? "" : fields[index]);
  const budgetGiven = field(columns.budget).trim() !== "";
  const budget = budgetGiven ? parseBudget(field(columns.budget), currency) : defaultBudget;
  if (typeof budget === "string") return skip(budget);
  const [department, interests, id] = [field(columns.department), field(columns.interests), field(columns.id)];
  return newPerson(at, name, department, interests, budget, { budgetGiven, id });
}

function rowNumber(text: string | undefined): number | undefined {
  const n = Number(text);
  return text !== undefined && /^\s*\d+\s*$/.test(text) && n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}

/** On Windows a Korean or Japanese keyboard's ₩ or ¥ key types a backslash, and shows it as that sign. */
const BACKSLASH_SIGN: Partial<Record<Currency, string>> = { KRW: "₩", JPY: "¥" };

/** A budget cell ("5만원", "$1,250", \50,000 in won): the positive amount in the job's `currency`, or why the row is skipped. */
export function parseBudget(raw: string, currency: Currency): number | string {
  const text = raw.trim();
  const sign = BACKSLASH_SIGN[currency];
  const read = readMoney(sign && text.startsWith("\\") ? sign + text.slice(1) : text);
  if (read === undefined || !(read.amount > 0)) return `its budget ${JSON.stringify(text)} is not a positive number`;
  if (read.currency !== undefined && read.currency !== currency)
    return `its budget ${text} is in ${read.currency}, but the job's budget is in ${currency}`;
  return read.amount;
}
