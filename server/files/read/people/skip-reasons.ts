/**
 * Why a row was skipped, in Korean: rows are read with an English reason (a staff file's job input
 * keeps it), re-worded by its pattern where a Korean person reads it; one no pattern knows stays.
 */

/** English patterns and their Korean: the first that matches rewords a text. */
export type Rewording = [pattern: RegExp, korean: (...parts: string[]) => string][];

export function reword(table: Rewording, english: string): string {
  for (const [pattern, korean] of table) {
    const parts = pattern.exec(english);
    if (parts) return korean(...parts.slice(1));
  }
  return english;
}

const KOREAN: Rewording = [
  [/^it has no name$/, () => "이름이 없습니다"],
  [/^its budget (.+) is not a positive number$/s, (budget) => `예산이 0보다 큰 숫자가 아닙니다(${budget})`],
  [
    /^its budget (.+) is in ([A-Z]{3}), but the job's budget is in ([A-Z]{3})$/s,
    (budget, cell, job) => `예산 ${budget}은(는) ${cell} 금액인데, 이 작업의 예산 통화는 ${job}입니다`,
  ],
  [
    /^it has (\d+) fields but the header has (\d+)(; put quotes around values that contain commas)?$/,
    (fields, header, quotes) =>
      `값이 ${fields}개인데 머리글은 ${header}개입니다${quotes ? ". 쉼표가 들어간 값은 큰따옴표로 감싸 주세요" : ""}`,
  ],
  [/^the row is empty$/, () => "빈 행입니다"],
  [/^it repeats row (\d+)$/, (row) => `${row}행과 같은 사람입니다`],
  [/^its ID (.+) repeats row (\d+)$/s, (id, row) => `${row}행과 사번(ID) ${id}이 같은 사람입니다`],
  [
    /^it was merged with row (\d+), which has the same name and department$/,
    (row) => `${row}행과 이름·부서가 같아 한 사람으로 합쳤습니다`,
  ],
  [
    /^a quoted value that starts in this row is never closed/,
    () =>
      "이 행에서 시작한 따옴표 값이 닫히지 않아 파일의 나머지가 그 값으로 읽혔습니다. 잘못 들어간 큰따옴표가 있는지 확인해 주세요",
  ],
  [/^it could not be read as CSV \((.*)\)$/s, (detail) => `CSV로 읽을 수 없습니다(${detail})`],
];

export const koreanReason = (reason: string): string => reword(KOREAN, reason);
