/**
 * What must be settled before a staff list can start a job, in sentences a person can act on: a
 * column no header could be matched to, two headers that could be the same column, an encoding
 * that could only be guessed, a header with nothing under it, rows of which none is a person.
 */
import type { ColumnKey, StaffPreview } from "../../../shared/files.js";
import { count } from "../../outcomes.js";
import { columnNames, type HeaderMatch } from "./headers.js";
import { sheetList } from "./xlsx.js";

const WHAT: Record<ColumnKey, string> = {
  name: "each person's name",
  department: "the department",
  interests: "the interests",
  budget: "the budget",
  id: "each person's ID (employee number)",
};

export type ProblemFacts = {
  source: Pick<StaffPreview, "encoding" | "encodingCertain" | "format" | "sheets" | "sheet">;
  headers: string[];
  mapping: HeaderMatch | undefined;
  rows: number;
  people: number;
};

/** The problems of a reading, in the order a person would settle them; none means ready. */
export function problemsOf({ source, headers, mapping, rows, people }: ProblemFacts): string[] {
  const problems: string[] = [];
  if (source.format === "csv" && !source.encodingCertain) {
    problems.push(
      `The file's encoding could not be told for sure, so it was read as ${source.encoding === "windows-1252" ? "Windows-1252 (Western European)" : source.encoding} and names may look wrong. Choose the encoding it was saved in: UTF-8, UTF-16, EUC-KR/CP949 (Korean Excel) or Windows-1252.`,
    );
  }
  if (mapping === undefined) {
    problems.push("The file has no rows: nothing to read.");
    return withSheets(problems, source);
  }
  const seen = headers.map((h) => JSON.stringify(h)).join(", ");
  for (const key of mapping.missing) {
    problems.push(
      `No column holds ${WHAT[key]}: the header has ${seen}. Choose the column with ${WHAT[key]} (a header such as ${columnNames(key)} is found by itself).`,
    );
  }
  for (const key of mapping.twice) {
    const taken = JSON.stringify(headers[mapping.columns[key]]);
    problems.push(`More than one column could hold ${WHAT[key]}; ${taken} was taken. Choose the right one.`);
  }
  if (rows === 0) problems.push("There are no rows under the header.");
  else if (mapping.missing.length === 0 && people === 0)
    problems.push(`None of the ${count(rows)} rows can become a person; the skipped rows say why.`);
  return withSheets(problems, source);
}

/** A workbook that cannot start says which sheets it has, so another can be named (`reading.sheet`). */
function withSheets(problems: string[], { format, sheets, sheet }: ProblemFacts["source"]): string[] {
  if (format !== "xlsx" || problems.length === 0 || sheets.length < 2) return problems;
  const read = sheet === null ? "none was read" : `${JSON.stringify(sheet)} was read`;
  return [
    ...problems,
    `The workbook's sheets are ${sheetList(sheets)}; ${read}. Another is read when named (reading: { sheet }).`,
  ];
}
