/**
 * A Korean team's staff workbook as another program writes it (SheetJS, which stores strings inline
 * in the sheet): a guide sheet ("안내") first, then the list under a title row, with 사번, namesakes
 * in one team, interests written with the separators people use and budgets typed the ways Korean
 * sheets type won. Returns the bytes and the people a reader must find, budgets in won.
 */
import * as XLSX from "xlsx";

export type KoreanPerson = { id: string; name: string; department: string; interests: string; budget: number };

const FAMILY = ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임"];
const GIVEN = ["민준", "서연", "도윤", "하은", "지호", "수아", "예준", "지우", "시우", "서윤", "하준", "지민"];
const TEAMS = ["인사팀", "개발팀", "영업팀", "디자인팀", "고객지원팀", "재무팀", "마케팅팀", "영업2팀"];
const INTERESTS = [
  "등산, 커피",
  "영화/독서",
  "캠핑 · 사진",
  "요가; 명상",
  "보드게임|맥주",
  "요리、와인",
  "러닝, 음악",
  "골프",
  "반려동물, 식물",
  "게임",
];

/** A budget in won, and the ways a person types it into a cell (a number, or text). */
const BUDGETS: [won: number, cell: string | number][] = [
  [50_000, 50_000],
  [50_000, "50,000"],
  [50_000, "50,000원"],
  [50_000, "50,000 원"],
  [50_000, "₩50,000"],
  [50_000, "￦50,000"],
  [50_000, "5만원"],
  [50_000, "5만 원"],
  [35_000, "3만5천원"],
  [50_000, "50,000 KRW"],
  [50_000, "KRW 50,000"],
  [100_000, "10만원"],
];

/** The first `count` people of the list; people 104 and 105 (1-based) are two 김민준 of 개발팀. */
export function koreanStaff(count: number): KoreanPerson[] {
  return Array.from({ length: count }, (_, i) => {
    const [won] = BUDGETS[i % BUDGETS.length];
    const namesake = i === 103 || i === 104;
    return {
      id: `E${String(20230001 + i)}`,
      name: namesake ? "김민준" : `${FAMILY[i % FAMILY.length]}${GIVEN[(i * 7) % GIVEN.length]}${i + 1}`,
      department: namesake ? "개발팀" : TEAMS[i % TEAMS.length],
      interests: namesake ? (i === 103 ? "등산, 커피" : "영화/독서") : INTERESTS[i % INTERESTS.length],
      budget: won,
    };
  });
}

/** The workbook's title row, above the header. */
const KOREAN_TITLE = "2026년 연말 감사 선물 명단";
export const KOREAN_HEADER = ["사번", "이름", "부서", "관심사", "예산"];

/** `people` as a CSV of KOREAN_HEADER, budgets as plain won: the list a script would write. */
export function koreanCsv(people: KoreanPerson[]): string {
  const field = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = people.map((p) => [p.id, p.name, p.department, p.interests].map(field).join(",") + `,${p.budget}`);
  return [KOREAN_HEADER.join(","), ...lines, ""].join("\n");
}

/** The SheetJS workbook of `people`: 안내 first, then 직원 명단 (title, blank row, header, rows). */
export function koreanWorkbook(people: KoreanPerson[]): Uint8Array {
  const guide = XLSX.utils.aoa_to_sheet([
    ["작성 안내"],
    ["1. 사번, 이름, 부서, 관심사, 예산을 입력하세요."],
    ["2. 관심사는 쉼표로 구분합니다."],
  ]);
  const rows = people.map((p, i) => [p.id, p.name, p.department, p.interests, BUDGETS[i % BUDGETS.length][1]]);
  const list = XLSX.utils.aoa_to_sheet([[KOREAN_TITLE], [], KOREAN_HEADER, ...rows]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, guide, "안내");
  XLSX.utils.book_append_sheet(book, list, "직원 명단");
  return new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer);
}
