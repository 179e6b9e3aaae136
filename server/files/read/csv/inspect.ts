/**
 * The look at a model's CSV text before any job exists: size, separator, header, rows and every
 * input limit, so a bad text is refused at once with a sentence that says how to fix it.
 */
import type { ColumnMap } from "../../../../shared/files.js";
import { columnNames, matchHeaders, normalizeHeader } from "../headers.js";
import { detectSeparator } from "../separator.js";
import { createPace, type Pace } from "../pace.js";
import { overLimit, type InputLimits } from "../../../limits.js";
import { fail, ok, type Outcome } from "../../../outcomes.js";
import { breachRefusal, findHeader, scanRecords, splitRecord } from "./scan.js";

/**
 * Where each column is in a record (-1 for none). `row` and `skip` are a staff file's job input's
 * (the row the file showed, and why the reader skipped it); records up to `headerRow` are no data.
 */
export type CsvColumns = ColumnMap & { row: number; skip: number; width: number; separator: string; headerRow: number };
export type CsvPlan = { columns: CsvColumns; rows: number };

const EXPECTED = `${columnNames("name")} and ${columnNames("interests")} (items separated by ; | , or /), optionally department, budget and an employee ID (사번)`;

/** The plan for a good text, or the error that says what is wrong. */
export async function inspectCsv(
  csv: string,
  limits: InputLimits,
  pace: Pace = createPace(),
): Promise<Outcome<CsvPlan>> {
  const bytes = Buffer.byteLength(csv, "utf8");
  if (bytes > limits.maxCsvBytes) return overLimit.bytes("The CSV", bytes, limits);
  const separator = detectSeparator(csv);
  const header = findHeader(csv);
  if (header === undefined) {
    return fail(
      "invalid_csv",
      "The CSV is empty.",
      `Send a header line with the columns ${EXPECTED}, then one line per employee.`,
    );
  }
  // the header alone first: a text of one huge line is refused before it is split
  const first = await scanRecords(csv, header, separator, -1, limits, pace, { onlyHeader: true });
  if (first.breach) return breachRefusal(first.breach, "The CSV", limits);
  const columns = readHeader(splitRecord(csv, header.start, first.headerEnd, separator), separator, header.row);
  if (!columns.ok) return columns;
  const { rows, breach } = await scanRecords(csv, header, separator, columns.value.interests, limits, pace);
  if (breach) return breachRefusal(breach, "The CSV", limits);
  if (rows === 0) {
    return fail(
      "invalid_csv",
      "The CSV has a header but no employee rows.",
      "Add one line per employee under the header.",
    );
  }
  return ok({ columns: columns.value, rows });
}

function readHeader(names: string[], separator: string, headerRow: number): Outcome<CsvColumns> {
  const { columns, missing, twice } = matchHeaders(names);
  if (missing.length > 0) {
    const seen = names.every((n) => n.trim() === "")
      ? "is empty"
      : `has ${names.map((n) => JSON.stringify(n.trim())).join(", ")}`;
    return fail(
      "invalid_csv",
      `The CSV has no ${missing.map((m) => `"${m}"`).join(" or ")} column: its header ${seen}.`,
      `The header must name the columns ${EXPECTED}.`,
    );
  }
  if (twice.length > 0)
    return fail("invalid_csv", `The CSV has two "${twice[0]}" columns.`, "Keep one of them and send the file again.");
  const normalized = names.map(normalizeHeader);
  return ok({
    ...columns,
    row: normalized.indexOf("row"),
    skip: normalized.indexOf("skip"),
    width: names.length,
    separator,
    headerRow,
  });
}
