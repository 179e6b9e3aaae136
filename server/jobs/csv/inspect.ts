/**
 * The cheap look at a CSV before any job exists: size, header and an upper bound on the rows, so a
 * bad file is refused at once with a sentence that says how to fix it. Reading the rows themselves
 * is the job's parse stage (reader.ts).
 */
import { parse } from "csv-parse/sync";
import type { Outcome } from "../outcomes.js";
import type { JobLimits } from "../limits.js";
import { count, fail, ok } from "../outcomes.js";

/** Where each column is in a record; `budget` is -1 when the file has none. */
export type CsvColumns = { name: number; department: number; interests: number; budget: number; width: number };
/** What a good file looks like: its columns and how many non-blank lines follow the header. */
export type CsvPlan = { columns: CsvColumns; rows: number };

const REQUIRED = ["name", "department", "interests"] as const;
const EXPECTED = "name, department, interests (separated by ; or |) and optionally budget";

/** Checks size, header and row count; the plan for a good file, or the error that says what is wrong. */
export function inspectCsv(csv: string, limits: Pick<JobLimits, "maxCsvBytes" | "maxRows">): Outcome<CsvPlan> {
  const bytes = Buffer.byteLength(csv, "utf8");
  if (bytes > limits.maxCsvBytes) {
    return fail(
      "input_too_large",
      `The CSV is ${size(bytes)}; the limit is ${size(limits.maxCsvBytes)}.`,
      "Split the list into smaller files and start one analysis for each.",
    );
  }
  const start = csv.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!/\S/.test(csv.slice(start))) {
    return fail(
      "invalid_csv",
      "The CSV is empty.",
      `Send a header line with the columns ${EXPECTED}, then one line per employee.`,
    );
  }
  const { headerEnd, rows } = scanRecords(csv, start);
  const columns = readHeader(csv.slice(start, headerEnd));
  if (!columns.ok) return columns;
  if (rows === 0) {
    return fail(
      "invalid_csv",
      "The CSV has a header but no employee rows.",
      "Add one line per employee under the header.",
    );
  }
  if (rows > limits.maxRows) {
    return fail(
      "too_many_rows",
      `The CSV has ${count(rows)} rows; one analysis takes at most ${count(limits.maxRows)}.`,
      `Split it into files of at most ${count(limits.maxRows)} rows and start one analysis for each.`,
    );
  }
  return ok({ columns: columns.value, rows });
}

function readHeader(line: string): Outcome<CsvColumns> {
  let names: string[];
  try {
    names = (parse(line, { relax_quotes: true, relax_column_count: true }) as string[][])[0] ?? [];
  } catch (error) {
    return fail(
      "invalid_csv",
      `The header line could not be read: ${(error as Error).message}.`,
      `Write it as ${EXPECTED}.`,
    );
  }
  const normalized = names.map((n) => n.trim().toLowerCase());
  const find = (column: string) => normalized.indexOf(column);
  const missing = REQUIRED.filter((c) => find(c) === -1);
  if (missing.length > 0) {
    const seen =
      names.length === 0 || normalized.every((n) => n === "")
        ? "is empty"
        : `has ${names.map((n) => JSON.stringify(n.trim())).join(", ")}`;
    return fail(
      "invalid_csv",
      `The CSV has no ${missing.map((m) => `"${m}"`).join(" or ")} column: its header ${seen}.`,
      `The header must name the columns ${EXPECTED}.`,
    );
  }
  const twice = [...REQUIRED, "budget"].find((c) => normalized.indexOf(c) !== normalized.lastIndexOf(c));
  if (twice)
    return fail("invalid_csv", `The CSV has two "${twice}" columns.`, "Keep one of them and send the file again.");
  return ok({
    name: find("name"),
    department: find("department"),
    interests: find("interests"),
    budget: find("budget"),
    width: names.length,
  });
}

/**
 * Finds where the first record ends and counts the non-blank records after it, honouring quoted
 * fields that span lines. An estimate when quotes are malformed; the parse stage has the last word.
 */
export function scanRecords(csv: string, start = 0): { headerEnd: number; rows: number } {
  const len = csv.length;
  const nl = csv.indexOf("\n", start) === -1 && csv.indexOf("\r", start) !== -1 ? "\r" : "\n";
  let headerEnd = -1;
  let rows = 0;
  let pos = start;
  let quote = csv.indexOf('"', pos);
  while (pos < len) {
    let end = lineEnd(csv, nl, pos);
    // a quote before the end of the line may open a field that runs past it
    while (quote !== -1 && quote < end) {
      const close = csv.indexOf('"', quote + 1);
      if (close === -1) {
        end = len;
        quote = -1;
        break;
      }
      quote = csv.indexOf('"', close + 1);
      if (close >= end) end = lineEnd(csv, nl, close + 1);
    }
    if (headerEnd === -1) headerEnd = end;
    else if (end - pos > 1 || (end - pos === 1 && csv[pos] !== "\r")) rows++;
    pos = end + 1;
  }
  return { headerEnd: headerEnd === -1 ? len : headerEnd, rows };
}

function lineEnd(csv: string, nl: string, from: number): number {
  const i = csv.indexOf(nl, from);
  return i === -1 ? csv.length : i;
}

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
