/**
 * The requests the server benchmark sends, the same to every target: one `suggest_gifts` and the
 * small bulk job whose finished event log `get_job_events` then reads.
 */
import { employeeCsv } from "../test-kit/employee-csv.js";

export const SUGGEST_ARGS = {
  occasion: "birthday",
  budget: 60,
  recipient: "a product designer who loves coffee, hiking and jazz",
  count: 5,
};

/** About twenty rows: a dozen events, answered in one page. */
export const BENCH_JOB = { csv: employeeCsv(20, { seed: 7 }), occasion: "holiday", budgetPerPerson: 50 };
