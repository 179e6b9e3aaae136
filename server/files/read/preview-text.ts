/**
 * A preview as a few English lines for the model: how the file was read, which header went to
 * which column and the currency its budgets were read in, how many rows became people, the first
 * rows skipped and why, and what must be settled before a job can start. The widget shows the same preview as a table.
 */
import { COLUMN_KEYS, type StaffPreview } from "../../../shared/files.js";
import { count } from "../../outcomes.js";
import { sheetList } from "./xlsx.js";

const ENCODING: Record<string, string> = {
  "utf-8": "UTF-8",
  "utf-16le": "UTF-16 (little-endian)",
  "utf-16be": "UTF-16 (big-endian)",
  "euc-kr": "EUC-KR/CP949 (Korean)",
  "windows-1252": "Windows-1252 (Western European)",
};
const SEPARATOR: Record<string, string> = { ",": "commas", ";": "semicolons", "\t": "tabs", "|": "pipes" };
/** Skipped rows named in the text; the rest are counted. */
const NAMED_SKIPS = 5;

/** What was understood of a staff file, in short English lines. */
export function previewText(p: StaffPreview): string {
  const lines: string[] = [];
  if (p.format === "xlsx") {
    const others = p.sheets.length > 1 ? ` (sheets: ${sheetList(p.sheets)})` : "";
    lines.push(
      `Read ${quote(p.fileName)} as an Excel workbook, sheet ${p.sheet === null ? "none" : quote(p.sheet)}${others}.`,
    );
  } else {
    const encoding = p.encoding === null ? "" : ` in ${ENCODING[p.encoding]}${p.encodingCertain ? "" : " (a guess)"}`;
    const separator =
      p.separator === null ? "" : `, fields separated by ${SEPARATOR[p.separator] ?? quote(p.separator)}`;
    lines.push(`Read ${quote(p.fileName)} as CSV${encoding}${separator}.`);
  }
  // the ID is named only when a column holds it: most lists have none, and "none" would say nothing
  const mapped = COLUMN_KEYS.filter((key) => key !== "id" || p.columns.id !== -1).map((key) => {
    const index = p.columns[key];
    const header =
      index === -1 ? (key === "budget" ? "none (the default budget applies)" : "none") : quote(p.headers[index] ?? "");
    return `${key} ← ${header}`;
  });
  const currency = p.currency === undefined ? "" : ` Budgets read in ${p.currency}.`;
  lines.push(`Columns: ${mapped.join(", ")}.${currency}`);
  const skips = p.skipped.slice(0, NAMED_SKIPS).map((s) => `row ${count(s.row)}: ${s.reason}`);
  const more = p.skippedCount - skips.length;
  const why = skips.length === 0 ? "" : ` (${skips.join("; ")}${more > 0 ? `; and ${count(more)} more` : ""})`;
  lines.push(
    `${count(p.rows)} ${p.rows === 1 ? "row" : "rows"}: ${count(p.people)} ${p.people === 1 ? "person" : "people"}, ${count(p.skippedCount)} skipped${why}.`,
  );
  if (p.possibleDuplicateCount > 0) lines.push(duplicatesLine(p));
  if (p.problems.length > 0) lines.push(`To settle before starting: ${p.problems.join(" ")}`);
  else lines.push("Ready to start.");
  return lines.join("\n");
}

/** Namesakes kept apart, the first few named, and how to merge them. */
function duplicatesLine(p: StaffPreview): string {
  const named = p.possibleDuplicates
    .slice(0, NAMED_SKIPS)
    .map((g) => `${quote(g.name)}${g.department ? ` in ${quote(g.department)}` : ""} (rows ${g.rows.join(", ")})`);
  const more = p.possibleDuplicateCount - named.length;
  return (
    `Possible duplicates, kept as different people: ${count(p.possibleDuplicateCount)} ${p.possibleDuplicateCount === 1 ? "name appears" : "names appear"} more than once in one department with other details differing: ` +
    `${named.join("; ")}${more > 0 ? `; and ${count(more)} more` : ""}. If they are the same people, read the file again with reading.mergeDuplicates: true.`
  );
}

const quote = (s: string) => JSON.stringify(s);
