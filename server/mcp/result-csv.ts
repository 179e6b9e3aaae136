/**
 * A part of a job's result as CSV, for spreadsheets: one line per person, the gifts in one cell.
 * The names, departments and interests come from an uploaded file, so a cell a spreadsheet would
 * run as a formula (one that starts with =, +, -, @, a tab or a carriage return) is written with a
 * leading apostrophe, as OWASP advises against CSV injection.
 */
import type { JobResultPage } from "../../shared/tools.js";
import { dollars } from "../gifts/reason.js";

const HEADER = ["row", "name", "department", "interests", "budget", "gifts"];

/** One CSV cell: defused if a spreadsheet would read it as a formula, quoted where CSV needs it. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header (on the first part only) and one line per person, each ending in CRLF. */
export function resultCsv(page: JobResultPage): string {
  const lines = page.offset === 0 ? [HEADER.join(",")] : [];
  for (const p of page.people) {
    const gifts = p.gifts.map((g) => `${g.name} (${dollars(g.price)})`).join("; ");
    lines.push(
      [String(p.row), p.name, p.department ?? "", p.interests.join("; "), String(p.budget), gifts]
        .map(csvCell)
        .join(","),
    );
  }
  return lines.map((line) => `${line}\r\n`).join("");
}
