/**
 * The words a job writes into its events (stage labels, progress messages, title, summaries, its
 * own failures), in the caller's language: English, and Korean for a `ko*` locale. Numbers are
 * formatted with `Intl` for that locale. Tool descriptions and other sentences meant for the model
 * stay English; the model speaks to the user in their language itself.
 */
import type { StageId } from "./stages.js";

export type Locale = "en" | "ko";

/** The first locale tag among `tags` (an argument, a host's `_meta` hint) decides; English by default. */
export function localeOf(...tags: unknown[]): Locale {
  const tag = tags.find((t): t is string => typeof t === "string" && t.trim() !== "");
  return tag !== undefined && /^ko\b/i.test(tag.trim()) ? "ko" : "en";
}

export type JobTexts = {
  /** "1,234" in English, "1,234" in Korean too, but through the locale's own rules. */
  count(n: number): string;
  stage: Record<StageId, string>;
  progress: Record<StageId, (done: string, total: string) => string>;
  title(occasion: string, people: string): string;
  started(occasion: string, people: string): string;
  summary(s: { occasion: string; people: number; withGifts: number; topPicks: number; skipped: number }): string;
  tooManyRows(max: string): { message: string; hint: string };
};

const EN: Omit<JobTexts, "count" | "summary"> = {
  stage: {
    parse: "Parsing the employee list",
    extract: "Extracting interests and departments",
    match: "Matching gifts per person",
    compose: "Composing the result",
  },
  progress: {
    parse: (d, t) => `Read ${d} of about ${t} rows`,
    extract: (d, t) => `Extracted interests and departments for ${d} of ${t} people`,
    match: (d, t) => `Matched gifts for ${d} of ${t} people`,
    compose: (d, t) => `Composed ${d} of ${t} results`,
  },
  title: (occasion, people) => `${occasion} gifts for ${people} people`,
  started: (occasion, people) => `Finding ${occasion} gifts for about ${people} people`,
  tooManyRows: (max) => ({
    message: `The CSV has more than ${max} rows.`,
    hint: "Split it into smaller files and start one analysis for each.",
  }),
};

const KO: Omit<JobTexts, "count" | "summary"> = {
  stage: {
    parse: "직원 목록 읽기",
    extract: "관심사와 부서 추출",
    match: "사람별 선물 고르기",
    compose: "결과 정리",
  },
  progress: {
    parse: (d, t) => `약 ${t}행 중 ${d}행을 읽었습니다`,
    extract: (d, t) => `${t}명 중 ${d}명의 관심사와 부서를 추출했습니다`,
    match: (d, t) => `${t}명 중 ${d}명의 선물을 골랐습니다`,
    compose: (d, t) => `${t}건 중 ${d}건의 결과를 정리했습니다`,
  },
  title: (occasion, people) => `${people}명을 위한 ${occasion} 선물`,
  started: (occasion, people) => `약 ${people}명을 위한 ${occasion} 선물을 찾는 중`,
  tooManyRows: (max) => ({
    message: `CSV의 행이 ${max}개를 넘습니다.`,
    hint: "파일을 더 작게 나누어 파일마다 분석을 시작하세요.",
  }),
};

const tag = (locale: Locale) => (locale === "ko" ? "ko-KR" : "en-US");
// made once: building an Intl.NumberFormat costs more than a job's other words together
const formats = new Map<string, Intl.NumberFormat>();
const format = (locale: Locale, kind: "count" | "dollars" | "cents"): Intl.NumberFormat => {
  const key = `${locale} ${kind}`;
  let f = formats.get(key);
  if (f === undefined) {
    const options: Intl.NumberFormatOptions =
      kind === "count" ? {} : { style: "currency", currency: "USD", minimumFractionDigits: kind === "cents" ? 2 : 0 };
    f = new Intl.NumberFormat(tag(locale), options);
    formats.set(key, f);
  }
  return f;
};

/** "$1,212" or "$1,212.50", in the locale's way of writing US dollars. */
const money = (locale: Locale, amount: number) =>
  format(locale, Number.isInteger(amount) ? "dollars" : "cents").format(amount);

/** The texts for `locale`. */
export function jobTexts(locale: Locale): JobTexts {
  const numbers = format(locale, "count");
  const count = (n: number) => numbers.format(n);
  const words = locale === "ko" ? KO : EN;
  return {
    ...words,
    count,
    summary({ occasion, people, withGifts, topPicks, skipped }) {
      const none = people - withGifts;
      if (locale === "ko") {
        const parts = [`${count(people)}명 중 ${count(withGifts)}명의 ${occasion} 선물을 찾았습니다`];
        if (withGifts > 0) parts.push(`1순위 선물의 합계는 ${money(locale, topPicks)}입니다`);
        if (none > 0) parts.push(`${count(none)}명은 예산 안에 맞는 선물이 없었습니다`);
        if (skipped > 0) parts.push(`${count(skipped)}개 행은 건너뛰었습니다(이유는 skipped 참고)`);
        return `${parts.join("; ")}.`;
      }
      const parts = [`Found ${occasion} gift ideas for ${count(withGifts)} of ${count(people)} people`];
      if (withGifts > 0) parts.push(`the top picks add up to ${money(locale, topPicks)}`);
      if (none > 0) parts.push(`${count(none)} had nothing within their budget`);
      if (skipped > 0)
        parts.push(`${count(skipped)} ${skipped === 1 ? "row was" : "rows were"} skipped (see skipped for why)`);
      return `${parts.join("; ")}.`;
    },
  };
}
