/**
 * The job's input as the table writes it: one canonical CSV holding every row of the staff list
 * with the row number the file showed and, for a skipped row, why; refused once it passes the bound
 * of a list the reader wrote (`readInputLimits`): the file's own limits keep a real list far below it.
 */
import { overLimit, readInputLimits, type InputLimits } from "../../limits.js";
import { Refused } from "./refused.js";

/**
 * The job input's header: the columns of a job plus where each row was and why it was skipped; the
 * ID last, so that the job knows people by it as the preview did.
 */
const CANONICAL_HEADER = "row,name,department,interests,budget,skip,id";

export class JobInputCsv {
  private readonly lines: string[] = [CANONICAL_HEADER];
  private bytes = CANONICAL_HEADER.length + 1;

  private readonly limits: InputLimits;

  constructor(limits: InputLimits) {
    this.limits = readInputLimits(limits);
  }

  /** Adds a person's row; throws `Refused` past the byte limit. */
  person(row: number, name: string, department: string, interests: string, budget: string, id: string): void {
    this.write([row, name, department, interests, budget, "", id].map(field).join(","));
  }

  /** Adds a skipped row, its name and department (for the job's skipped-rows file), and why; throws `Refused` past the byte limit. */
  skipped(row: number, reason: string, name = "", department = ""): void {
    this.write(`${row},${field(name)},${field(department)},,,${field(reason)},`);
  }

  /** The CSV written so far, each line ended. */
  text(): string {
    return `${this.lines.join("\n")}\n`;
  }

  private write(line: string): void {
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line, "utf8") + 1;
    if (this.bytes > this.limits.maxCsvBytes)
      throw new Refused(overLimit.bytes("The staff list, as the job reads it,", this.bytes, this.limits));
  }
}

/** A CSV field, quoted where it must be. */
const field = (value: string | number): string => {
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
