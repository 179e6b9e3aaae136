/**
 * Checking a start request before any job exists: exactly one employee list, a real occasion and
 * budget, and a CSV whose size, header and row count are fine. What passes is the job's input and
 * what its runner needs to know about it; what fails is the error to answer with.
 */
import { inspectCsv, type CsvColumns } from "./csv/inspect.js";
import type { JobLimits } from "./limits.js";
import { count, fail, ok, type Outcome } from "./outcomes.js";
import type { StartBulkArgs } from "../../shared/tools.js";

/** A request that may become a job: its input, the CSV's columns, and how many rows to expect. */
export type StartPlan = { input: StartBulkArgs; columns?: CsvColumns; estimatedRows: number };

/** Checks a start request; the plan for a job, or the error to answer with (and then no job exists). */
export function planStart(args: StartBulkArgs, limits: Pick<JobLimits, "maxCsvBytes" | "maxRows">): Outcome<StartPlan> {
  const { csv, employees, occasion, budgetPerPerson } = args;
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
      "Give the default budget per person in US dollars.",
    );
  }
  if (csv !== undefined) {
    const plan = inspectCsv(csv, limits);
    if (!plan.ok) return plan;
    return ok({
      input: { occasion, budgetPerPerson, csv },
      columns: plan.value.columns,
      estimatedRows: plan.value.rows,
    });
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
  return ok({ input: { occasion, budgetPerPerson, employees: list }, estimatedRows: list.length });
}
