/**
 * A spreadsheet cell as the text a person sees in it: numbers as Excel shows them (15 significant
 * digits, no float noise), dates as ISO dates, rich text joined, a formula's last result, a link's
 * text, an error as its code. Everything a staff list reads is text first.
 */
import type { CellValue } from "exceljs";

/** The text of a cell value (exceljs's shapes), "" for an empty cell. */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(Number(value.toPrecision(15))) : "";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return dateText(value);
  if ("richText" in value) return (value.richText ?? []).map((run) => run.text ?? "").join("");
  if ("error" in value) return value.error;
  if ("formula" in value || "sharedFormula" in value) return cellText(value.result);
  if ("text" in value) return typeof value.text === "string" ? value.text : cellText(value.text);
  return "";
}

/** "2024-05-01", or "2024-05-01T13:45:00" when the cell has a time of day (Excel dates carry no zone). */
function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return "";
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 19);
}
