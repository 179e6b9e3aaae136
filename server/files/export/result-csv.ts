/**
 * A part of a job's result as CSV, one line per person, the gifts in one cell. Cells come from an
 * uploaded file, so one a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a
 * carriage return) gets a leading apostrophe, as OWASP advises against CSV injection.
 */
import type { JobResultPage } from "../../../shared/tools.js";
import { moneyText } from "../../gifts/reason.js";

/** One CSV field, quoted where CSV needs it (the job's input writes its fields so). */
export const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** One CSV cell for spreadsheets: defused if a spreadsheet would read it as a formula, then quoted. */
export const csvCell = (value: string): string => csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** A line of cells for spreadsheets (numbers as they are), ending in CRLF. */
export const csvLine = (cells: readonly (string | number)[]): string =>
  `${cells.map((c) => (typeof c === "number" ? String(c) : csvCell(c))).join(",")}\r\n`;

/** The header (on the first part only) and one line per person, each ending in CRLF. */
export function resultCsv(page: JobResultPage): string {
  const currency = page.currency ?? "USD";
  const header = ["row", "name", "department", "interests", `budget (${currency})`, "gifts"];
  const lines = page.offset === 0 ? [csvLine(header)] : [];
  for (const p of page.people) {
    const gifts = p.gifts.map((g) => `${g.name} (${moneyText(g.price, currency)})`).join("; ");
    lines.push(csvLine([p.row, p.name, p.department ?? "", p.interests.join("; "), p.budget, gifts]));
  }
  return lines.join("");
}
