/** The stages of a bulk analysis in English and Korean: the widget writes them in its host's language. */
export const BULK_STAGES = ["parse", "extract", "match", "compose"] as const;
export type BulkStage = (typeof BULK_STAGES)[number];
export type Language = "en" | "ko";

export const isBulkStage = (id: string): id is BulkStage => (BULK_STAGES as readonly string[]).includes(id);

export const STAGE_LABELS: Record<Language, Record<BulkStage, string>> = {
  en: {
    parse: "Parsing the employee list",
    extract: "Extracting interests and departments",
    match: "Matching gifts per person",
    compose: "Composing the result",
  },
  ko: {
    parse: "직원 목록 읽기",
    extract: "관심사와 부서 추출",
    match: "사람별 선물 고르기",
    compose: "결과 정리",
  },
};

/** What each stage counts: the list's rows while it is read, people after. */
export const STAGE_UNIT: Record<BulkStage, "rows" | "people"> = {
  parse: "rows",
  extract: "people",
  match: "people",
  compose: "people",
};
