/**
 * Which column of a staff list is which: header names matched in English and Korean with their
 * synonyms, whatever their case, spacing, punctuation or unit ("Budget ($)").
 */
import { COLUMN_KEYS, type ColumnKey, type ColumnMap } from "../../../shared/files.js";

/** Names each column goes by, best first: a header matching an earlier one wins over a later one. */
const SYNONYMS: Record<ColumnKey, readonly string[]> = {
  name: [
    ...["name", "full name", "employee name", "employee", "staff name", "staff", "person", "recipient"],
    ...["이름", "성명", "직원명", "직원 이름", "사원명", "성함", "직원", "사원"],
  ],
  department: [
    ...["department", "dept", "team", "division", "group", "unit", "organization", "org"],
    ...["부서", "부서명", "팀", "팀명", "소속", "본부"],
  ],
  interests: [
    ...["interests", "interest", "hobbies", "hobby", "likes", "tags"],
    ...["관심사", "관심 분야", "취미", "관심", "좋아하는 것"],
  ],
  budget: [
    ...["budget", "gift budget", "amount", "budget usd", "limit", "price"],
    ...["예산", "선물 예산", "금액", "한도"],
  ],
  // the employee number an HR export keys people by; "Employee #" is left out: it reads as "employee"
  id: [
    ...["employee id", "employee number", "employee no", "emp id", "emp no", "emp number", "staff id"],
    ...["staff number", "staff no", "personnel number", "personnel no", "worker id", "person id", "id"],
    ...["사번", "사원번호", "직원번호", "직번", "사원 ID", "직원 ID", "사원코드", "직원코드", "사원 코드"],
  ],
};

const REQUIRED_COLUMNS: readonly ColumnKey[] = ["name", "interests"];

/** A header longer than this is no column name. */
const LONGEST_HEADER = 100;

/** "Full_Name (EN)" → "fullname": case, spacing, punctuation and bracketed notes aside. */
export function normalizeHeader(header: string): string {
  if (header.length > LONGEST_HEADER) return "";
  return header
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\([^)]*\)|\[[^\]]*\]/g, "")
    .replace(/[\s_\-.·:/#*'"’]+/g, "");
}

const RANK = new Map<string, { key: ColumnKey; rank: number }>();
for (const key of COLUMN_KEYS)
  SYNONYMS[key].forEach((synonym, rank) => RANK.set(normalizeHeader(synonym), { key, rank }));

/** Whether `cell` is a name some column goes by ("Full name", "관심사"). */
export const isColumnName = (cell: string): boolean => RANK.has(normalizeHeader(cell));

/** Columns by key (-1 for none), the required ones missing, and keys two headers claim equally. */
export type HeaderMatch = { columns: ColumnMap; missing: ColumnKey[]; twice: ColumnKey[] };

/** Rows with text looked at for the header (a title and a note or two may sit above it). */
export const HEADER_CANDIDATES = 10;

export const mappedCount = (m: HeaderMatch): number => Object.values(m.columns).filter((i) => i !== -1).length;

/** Maps `headers` to the job's columns; `chosen` overrides by key (out of range: none). */
export function matchHeaders(headers: readonly string[], chosen: Partial<ColumnMap> = {}): HeaderMatch {
  const columns: ColumnMap = { name: -1, department: -1, interests: -1, budget: -1, id: -1 };
  const taken = new Set<number>();
  for (const key of COLUMN_KEYS) {
    const index = chosen[key];
    if (index === undefined) continue;
    columns[key] = index >= 0 && index < headers.length ? index : -1;
    taken.add(columns[key]);
  }
  const best = new Map<ColumnKey, { index: number; rank: number; tie: boolean }>();
  headers.forEach((header, index) => {
    const found = RANK.get(normalizeHeader(header));
    if (found === undefined || taken.has(index) || chosen[found.key] !== undefined) return;
    const held = best.get(found.key);
    if (held === undefined || found.rank < held.rank) best.set(found.key, { index, rank: found.rank, tie: false });
    else if (found.rank === held.rank) held.tie = true;
  });
  for (const [key, { index }] of best) columns[key] = index;
  const twice = [...best].filter(([, held]) => held.tie).map(([key]) => key);
  const missing = REQUIRED_COLUMNS.filter((key) => columns[key] === -1);
  return { columns, missing, twice };
}

/** What each column may be called, for the sentences that ask for one: `"name" (or "이름", …)`. */
export function columnNames(key: ColumnKey): string {
  const names = SYNONYMS[key];
  const korean = names.find((n) => /[가-힣]/.test(n));
  return `"${names[0]}" (or "${names[1]}", "${korean}")`;
}
