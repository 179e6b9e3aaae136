/**
 * Checking a start request before any job exists: exactly one employee list, a real occasion and
 * budget, and an input within every limit (an `employees` list measured as the CSV it would be).
 */
import { createPace } from "../files/read/pace.js";
import { inspectCsv, type CsvColumns } from "../files/read/csv/inspect.js";
import { overLimit, type InputLimits } from "../limits.js";
import { count, fail, ok, type Outcome } from "../outcomes.js";
import type { StartBulkArgs } from "../../shared/tools.js";

/** A request that may become a job: its input, the CSV's columns, and how many rows to expect. */
export type StartPlan = { input: StartBulkArgs; columns?: CsvColumns; estimatedRows: number };

/** The plan for a job, or the error to answer with; a large input is measured in slices. */
export async function planStart(args: StartBulkArgs, limits: InputLimits): Promise<Outcome<StartPlan>> {
  const { csv, occasion, budgetPerPerson } = args;
  // written into the input, so that a stored job keeps them
  const currency = args.currency ?? "USD";
  const kept = { occasion, budgetPerPerson, currency, ...(args.locale === undefined ? {} : { locale: args.locale }) };
  // forms that show every field send an empty list beside the CSV: that list was not given
  const employees = csv !== undefined && args.employees?.length === 0 ? undefined : args.employees;
  if ((csv === undefined) === (employees === undefined)) {
    return fail(
      "invalid_arguments",
      csv === undefined ? "No employee list was given." : "Both csv and employees were given.",
      "Send the employee list once: either as csv (CSV text) or as employees (a list).",
    );
  }
  if (occasion.trim() === "")
    return fail("invalid_arguments", "The occasion is empty.", 'Say what the gifts are for, e.g. "holiday".');
  if (!(budgetPerPerson > 0 && Number.isFinite(budgetPerPerson))) {
    return fail(
      "invalid_arguments",
      `budgetPerPerson must be a positive amount, not ${budgetPerPerson}.`,
      `Give the default budget per person, in ${currency}.`,
    );
  }
  if (csv !== undefined) {
    const plan = await inspectCsv(csv, limits);
    return plan.ok
      ? ok({ input: { ...kept, csv }, columns: plan.value.columns, estimatedRows: plan.value.rows })
      : plan;
  }
  const list = employees ?? [];
  if (list.length === 0) return fail("invalid_arguments", "The employees list is empty.", "Add at least one employee.");
  if (list.length > limits.maxRows) {
    return fail(
      "too_many_rows",
      `The list has ${count(list.length)} employees; one analysis takes at most ${count(limits.maxRows)}.`,
      "Split it into smaller lists and start one analysis for each.",
    );
  }
  const measured = await measureEmployees(list, limits);
  return measured.ok ? ok({ input: { ...kept, employees: list }, estimatedRows: list.length }) : measured;
}

/** The limits a CSV meets, applied to a list and the CSV it would be; linear in its characters. */
async function measureEmployees(
  list: NonNullable<StartBulkArgs["employees"]>,
  limits: InputLimits,
): Promise<Outcome<null>> {
  const pace = createPace();
  let bytes = "name,department,interests,budget\n".length;
  for (let i = 0; i < list.length; i++) {
    if (i % 1024 === 0) await pace();
    const { name, department = "", interests, budget } = list[i];
    const where = `Employee ${count(i + 1)}`;
    if (interests.length > limits.maxInterestsPerPerson) return overLimit.interests(where, interests.length, limits);
    const joined = interests.join(";");
    const longest = Math.max(name.length, department.length, joined.length);
    if (longest > limits.maxCellChars) return overLimit.cellChars(where, longest, limits);
    bytes += lineBytes(name, department, joined, budget);
    if (bytes > limits.maxCsvBytes) {
      const all = list.reduce((sum, e) => sum + lineBytes(e.name, e.department, e.interests.join(";"), e.budget), 0);
      return overLimit.bytes("The list, as a CSV,", all, limits);
    }
  }
  return ok(null);
}

const lineBytes = (name: string, department: string | undefined, joined: string, budget: number | undefined) =>
  Buffer.byteLength(`${name},${department ?? ""},${joined},${budget ?? ""}\n`, "utf8");
