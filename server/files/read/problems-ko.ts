/**
 * What must be settled before a staff list can start, in Korean. The reader words its problems in
 * English (preview-text.ts: the model reads them so); a Korean person's preview re-words each by its
 * English pattern here, as skip reasons are (people/skip-reasons.ts). A problem no pattern knows
 * stays as it is; the test checks that every problem the reader writes has its Korean.
 */
import { reword, type Rewording } from "./people/skip-reasons.js";

/** The column each English phrase of preview-text.ts names, in Korean. */
const COLUMN: Record<string, string> = {
  "each person's name": "이름",
  "the department": "부서",
  "the interests": "관심사",
  "the budget": "예산",
  "each person's ID (employee number)": "사번",
};
const column = (what: string) => COLUMN[what] ?? what;

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

/** `problem` in Korean, or as it is when no pattern knows it. */
export const koreanProblem = (problem: string): string => reword(KOREAN, problem);
