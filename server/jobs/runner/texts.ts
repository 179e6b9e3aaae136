/**
 * The words a job writes into its events and result, in English or (a `ko*` locale) Korean.
 * Sentences meant for the model stay English; the model speaks to the user in their language itself.
 */
import { formatsFor, listed } from "../../../shared/format.js";
import { STAGE_LABELS, type BulkStage, type Language } from "../../../shared/stage-words.js";
import type { ResultFigures } from "../../../shared/tools.js";
import { koreanReason } from "../../files/read/people/skip-reasons.js";

export type Locale = Language;

/** The first locale tag among `tags` (an argument, a host's `_meta` hint). */
export function localeTag(...tags: unknown[]): string | undefined {
  return tags.find((t): t is string => typeof t === "string" && t.trim() !== "")?.trim();
}

/** The language the first locale tag among `tags` names; English by default. */
export function localeOf(...tags: unknown[]): Locale {
  const tag = localeTag(...tags);
  return tag !== undefined && /^ko\b/i.test(tag) ? "ko" : "en";
}

/** The occasion without the gift word it may end in, since the texts add their own: no "연말 감사 선물 선물". */
function bare(occasion: string): string {
  const text = occasion.trim();
  return text.replace(/\s*선물$|\s+gifts?$/i, "") || text;
}

export type JobTexts = {
  locale: Locale;
  count(n: number): string;
  stage: Record<BulkStage, string>;
  progress: Record<BulkStage, (done: string, total: string) => string>;
  /** Named by the list's rows: how many are people is known only once it is read. */
  title(occasion: string, rows: string): string;
  started(occasion: string, rows: string): string;
  summary(s: { occasion: string } & ResultFigures): string;
  tooManyRows(max: string): { message: string; hint: string };
  skipped(reason: string): string;
};

const EN: Omit<JobTexts, "locale" | "count" | "summary"> = {
  stage: STAGE_LABELS.en,
  progress: {
    parse: (d, t) => `Read ${d} of ${t} rows`,
    extract: (d, t) => `Extracted interests and departments for ${d} of ${t} people`,
    match: (d, t) => `Matched gifts for ${d} of ${t} people`,
    compose: (d, t) => `Composed ${d} of ${t} results`,
  },
  title: (occasion, rows) => `${bare(occasion)} gifts from a list of ${rows} ${rows === "1" ? "row" : "rows"}`,
  started: (occasion, rows) => `Reading a list of ${rows} ${rows === "1" ? "row" : "rows"} for ${bare(occasion)} gifts`,
  tooManyRows: (max) => ({
    message: `The CSV has more than ${max} rows.`,
    hint: "Split it into smaller files and start one analysis for each.",
  }),
  skipped: (reason) => reason,
};

const KO: Omit<JobTexts, "locale" | "count" | "summary"> = {
  stage: STAGE_LABELS.ko,
  progress: {
    parse: (d, t) => `${t}행 중 ${d}행을 읽었습니다`,
    extract: (d, t) => `${t}명 중 ${d}명의 관심사와 부서를 추출했습니다`,
    match: (d, t) => `${t}명 중 ${d}명의 선물을 골랐습니다`,
    compose: (d, t) => `${t}건 중 ${d}건의 결과를 정리했습니다`,
  },
  title: (occasion, rows) => `${rows}행 명단의 ${bare(occasion)} 선물`,
  started: (occasion, rows) => `${bare(occasion)} 선물을 위해 ${rows}행 명단을 읽는 중`,
  tooManyRows: (max) => ({
    message: `CSV의 행이 ${max}개를 넘습니다.`,
    hint: "파일을 더 작게 나누어 파일마다 분석을 시작하세요.",
  }),
  skipped: koreanReason,
};

export function jobTexts(locale: Locale): JobTexts {
  const { count, money } = formatsFor(locale === "ko" ? "ko-KR" : "en-US");
  const words = locale === "ko" ? KO : EN;
  return {
    ...words,
    locale,
    count,
    summary({ occasion, people, withGifts, topPicks, skipped, unplaced, currency = "USD" }) {
      const none = people - withGifts;
      const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;
      // the names as written, then "…" when there are more than the figures name
      const named = unplaced && listed(unplaced.names, unplaced.count);
      if (locale === "ko") {
        const parts = [`${count(people)}명 중 ${count(withGifts)}명의 ${bare(occasion)} 선물을 찾았습니다`];
        if (withGifts > 0) parts.push(`1순위 선물의 합계는 ${money(topPicks, currency)}입니다`);
        if (none > 0) parts.push(`${count(none)}명은 예산 안에 맞는 선물이 없었습니다`);
        if (skipped > 0) parts.push(`${count(skipped)}개 행은 건너뛰었습니다(이유는 skipped 참고)`);
        if (unplaced) parts.push(`어떤 관심사인지 알아보지 못한 항목 ${count(unplaced.count)}개: ${named}`);
        return `${parts.join("; ")}.`;
      }
      const parts = [`Found ${bare(occasion)} gift ideas for ${count(withGifts)} of ${count(people)} people`];
      if (withGifts > 0) parts.push(`the top picks add up to ${money(topPicks, currency)}`);
      if (none > 0) parts.push(`${count(none)} had nothing within their budget`);
      if (skipped > 0) parts.push(`${plural(skipped, "row was", "rows were")} skipped (see skipped for why)`);
      if (unplaced) parts.push(`${plural(unplaced.count, "interest", "interests")} we could not place: ${named}`);
      return `${parts.join("; ")}.`;
    },
  };
}
