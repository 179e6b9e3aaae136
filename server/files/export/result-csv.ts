/**
 * A part of a job's result as CSV, for spreadsheets: one line per person, the gifts in one cell.
 * The names, departments and interests come from an uploaded file, so a cell a spreadsheet would
 * run as a formula (one that starts with =, +, -, @, a tab or a carriage return) is written with a
 * leading apostrophe, as OWASP advises against CSV injection.
 */
import type { JobResultPage } from "../../../shared/tools.js";
import { moneyText } from "../../gifts/reason.js";

const HEADER = ["row", "name", "department", "interests", "budget", "gifts"];

/** One CSV cell: defused if a spreadsheet would read it as a formula, quoted where CSV needs it. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header (on the first part only) and one line per person, each ending in CRLF. */
export function resultCsv(page: JobResultPage): string {
  const currency = page.currency ?? "USD";
  // the header says the currency of the budgets: "budget (KRW)"
  const header = HEADER.map((h) => (h === "budget" ? `budget (${currency})` : h));
  const lines = page.offset === 0 ? [header.join(",")] : [];
  for (const p of page.people) {
    const gifts = p.gifts.map((g) => `${g.name} (${moneyText(g.price, currency)})`).join("; ");
    lines.push(
      [String(p.row), p.name, p.department ?? "", p.interests.join("; "), String(p.budget), gifts]
        .map(csvCell)
        .join(","),
    );
  }
  return lines.map((line) => `${line}\r\n`).join("");
}
