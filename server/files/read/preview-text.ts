/**
 * A preview in words: what must be settled before a staff list can start a job, in sentences a
 * person can act on, and the preview as a few lines for the model. A Korean preview re-words each
 * problem by its English pattern (as skip-reasons.ts does); the test checks every one has its Korean.
 */
import { listed } from "../../../shared/format.js";
import { COLUMN_KEYS, type ColumnKey, type StaffPreview } from "../../../shared/files.js";
import type { Currency } from "../../../shared/money.js";
import { moneyText } from "../../gifts/reason.js";
import { count } from "../../outcomes.js";
import { columnNames, type HeaderMatch } from "./headers.js";
import { reword, type Rewording } from "./people/skip-reasons.js";
import { sheetList } from "./xlsx.js";

const ENCODING: Record<string, string> = {
  "utf-8": "UTF-8",
  "utf-16le": "UTF-16 (little-endian)",
  "utf-16be": "UTF-16 (big-endian)",
  "euc-kr": "EUC-KR/CP949 (Korean)",
  "windows-1252": "Windows-1252 (Western European)",
};
const SEPARATOR: Record<string, string> = { ",": "commas", ";": "semicolons", "\t": "tabs", "|": "pipes" };
const NAMED_SKIPS = 5;

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
  if (p.lowBudgets) lines.push(lowBudgetsLine(p.lowBudgets, p.currency ?? "USD"));
  if (p.possibleDuplicateCount > 0) lines.push(duplicatesLine(p));
  lines.push(p.problems.length > 0 ? `To settle before starting: ${p.problems.join(" ")}` : "Ready to start.");
  return lines.join("\n");
}

/** People whose budget buys nothing, and the likeliest cause: budgets written in another currency. */
function lowBudgetsLine({ count: n, rows, cheapest }: NonNullable<StaffPreview["lowBudgets"]>, currency: Currency) {
  return (
    `${count(n)} ${n === 1 ? "person has a budget" : "people have budgets"} under the cheapest gift (${moneyText(cheapest, currency)}), so would get none (${n === 1 ? "row" : "rows"} ${listed(rows, n)}). ` +
    `If the file's budgets are in another currency than ${currency}, read it again with reading.currency set to theirs and start the job in it.`
  );
}

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

/** What each column holds, and the column's name in Korean. */
const WHAT: Record<ColumnKey, [english: string, korean: string]> = {
  name: ["each person's name", "이름"],
  department: ["the department", "부서"],
  interests: ["the interests", "관심사"],
  budget: ["the budget", "예산"],
  id: ["each person's ID (employee number)", "사번"],
};

export type ProblemFacts = {
  source: Pick<StaffPreview, "encoding" | "encodingCertain" | "format" | "sheets" | "sheet">;
  headers: string[];
  mapping: HeaderMatch | undefined;
  rows: number;
  people: number;
  /** Budgets written in another currency than the job's, where they outnumber those in the job's. */
  otherCurrency?: { currency: Currency; count: number; job: Currency };
};

/** The problems of a reading, in the order a person would settle them. */
export function problemsOf({ source, headers, mapping, rows, people, otherCurrency }: ProblemFacts): string[] {
  const problems: string[] = [];
  if (source.format === "csv" && !source.encodingCertain) {
    problems.push(
      `The file's encoding could not be told for sure, so it was read as ${ENCODING[source.encoding ?? ""]} and names may look wrong. Choose the encoding it was saved in: UTF-8, UTF-16, EUC-KR/CP949 (Korean Excel) or Windows-1252.`,
    );
  }
  if (mapping === undefined) {
    problems.push("The file has no rows: nothing to read.");
    return withSheets(problems, source);
  }
  const seen = headers.map((h) => JSON.stringify(h)).join(", ");
  for (const key of mapping.missing) {
    problems.push(
      `No column holds ${WHAT[key][0]}: the header has ${seen}. Choose the column with ${WHAT[key][0]} (a header such as ${columnNames(key)} is found by itself).`,
    );
  }
  for (const key of mapping.twice) {
    const taken = JSON.stringify(headers[mapping.columns[key]]);
    problems.push(`More than one column could hold ${WHAT[key][0]}; ${taken} was taken. Choose the right one.`);
  }
  if (otherCurrency) {
    // most budgets name a currency the job is not in: read as they are, most people would be dropped
    const { currency, count: n, job } = otherCurrency;
    problems.push(
      `Most of the file's budgets are written in ${currency} (${count(n)} ${n === 1 ? "row" : "rows"}), but the job's budget is in ${job}, so those rows would be skipped. Read the file in ${currency} (reading: { currency: "${currency}" }) and start the job in ${currency}, or write those budgets in ${job}.`,
    );
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

const column = (what: string) => Object.values(WHAT).find(([english]) => english === what)?.[1] ?? what;

/** '"안내" (1 row), "직원" (31 rows, hidden)' → '"안내"(1행), "직원"(31행, 숨김)'. */
const sheetsKo = (list: string) =>
  list.replace(
    / \((\d+) rows?(, hidden)?\)/g,
    (_, rows: string, hidden?: string) => `(${rows}행${hidden ? ", 숨김" : ""})`,
  );

const KOREAN: Rewording = [
  [
    /^The file's encoding could not be told for sure, so it was read as (.+) and names may look wrong\./s,
    (encoding) =>
      `파일의 인코딩을 확실히 알 수 없어 ${encoding.replace(" (Western European)", "(서유럽)")}(으)로 읽었기 때문에 이름이 깨져 보일 수 있습니다. 저장할 때의 인코딩을 고르세요: UTF-8, UTF-16, EUC-KR/CP949(한국어 Excel), Windows-1252.`,
  ],
  [/^The file has no rows: nothing to read\.$/, () => "파일에 행이 없어 읽을 것이 없습니다."],
  [
    /^No column holds (.+?): the header has (.*)\. Choose the column with .+ \(a header such as (.+) is found by itself\)\.$/s,
    (what, headers, names) =>
      `${column(what)} 열이 없습니다. 머리글은 ${headers}입니다. ${column(what)} 열을 골라 주세요(${names} 같은 머리글은 저절로 찾습니다).`,
  ],
  [
    /^More than one column could hold (.+?); (.+) was taken\. Choose the right one\.$/s,
    (what, taken) => `${column(what)} 열이 될 수 있는 열이 여러 개라 ${taken} 열을 골랐습니다. 맞는 열을 골라 주세요.`,
  ],
  [
    /^Most of the file's budgets are written in ([A-Z]{3}) \(([\d,]+) rows?\), but the job's budget is in ([A-Z]{3}), so those rows would be skipped\. .*$/s,
    (currency, rows, job) =>
      `파일의 예산 대부분이 ${currency}로 적혀 있지만(${rows}행) 작업 예산은 ${job}라 그 행들을 건너뛰게 됩니다. 파일을 ${currency}로 읽고 작업도 ${currency}로 시작하거나, 그 예산을 ${job}로 적어 주세요.`,
  ],
  [/^There are no rows under the header\.$/, () => "머리글 아래에 행이 없습니다."],
  [
    /^None of the ([\d,]+) rows can become a person; the skipped rows say why\.$/,
    (rows) => `${rows}개 행 중 사람으로 읽을 수 있는 행이 없습니다. 건너뛴 행에 이유가 있습니다.`,
  ],
  [
    /^The workbook's sheets are (.+); (?:(".*") was read|none was read)\. Another is read when named \(reading: \{ sheet \}\)\.$/s,
    (sheets, read) =>
      `이 통합 문서의 시트는 ${sheetsKo(sheets)}입니다. ${read ? `${read} 시트를 읽었습니다` : "읽은 시트가 없습니다"}. 다른 시트를 고르면 그 시트를 읽습니다.`,
  ],
];

export const koreanProblem = (problem: string): string => reword(KOREAN, problem);
