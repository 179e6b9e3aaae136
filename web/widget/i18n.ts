/**
 * The widget's own words in English and Korean, chosen by the host's `locale` (`ko*` → Korean),
 * numbers written as the server's texts write them (shared/format.ts). Titles, summaries and errors
 * from the server are shown as they are.
 */
import type { ColumnKey } from "../../shared/files.js";
import { formatsFor, listed, oncePer, type Formats } from "../../shared/format.js";
import type { Currency } from "../../shared/money.js";
import { isBulkStage, STAGE_LABELS } from "../../shared/stage-words.js";
import type { JobStatus, StageView } from "../../shared/job-view.js";
import type { ResultFigures } from "../../shared/tools.js";
import { useHostGlobal } from "./host-context.js";

/** An English word (or sentence maker) and its Korean, side by side, so that neither language lacks one. */
type Pair<T = string> = readonly [en: T, ko: T];
type Said = (...args: never[]) => string;
/** Pairs, tables of them, and sentence makers that are the same in both languages. */
type Table = { readonly [key: string]: Pair<unknown> | Said | Table };
type Words<T> = { [K in keyof T]: T[K] extends Pair<infer W> ? W : T[K] extends Said ? T[K] : Words<T[K]> };

/** The widget's words that hold no number, in both languages. */
const WORDS = {
  noHost: [
    "GiftGenius shows its results inside a chat app, such as ChatGPT, Claude, VS Code or Goose. Open it from a conversation there; on its own, this page cannot reach the app.",
    "GiftGenius는 ChatGPT, Claude, VS Code, Goose 같은 채팅 앱 안에서 결과를 보여 줍니다. 그 앱의 대화에서 열어 주세요. 이 페이지만으로는 앱에 연결할 수 없습니다.",
  ],
  connecting: ["Connecting to the chat app…", "채팅 앱에 연결하는 중…"],
  toolCancelled: ["The request was canceled before it finished.", "요청이 끝나기 전에 취소되었습니다."],
  readySoFar: ["Ready so far, while the rest is composed:", "나머지를 정리하는 동안 먼저 준비된 결과:"],
  waitingForTool: ["Waiting for the tool result…", "도구 결과를 기다리는 중…"],
  nothingToShow: ["This tool result has nothing to show.", "이 도구 결과에는 표시할 내용이 없습니다."],
  toolFailed: ["The tool call failed.", "도구 호출에 실패했습니다."],
  jobTitle: ["Gift analysis", "선물 분석"],
  starting: ["Starting…", "시작하는 중…"],
  progress: ["Progress", "진행률"],
  stages: ["Stages", "단계"],
  cancel: ["Cancel", "취소"],
  cancelQuestion: ["Cancel the analysis?", "분석을 취소할까요?"],
  cancelYes: ["Yes, cancel", "취소하기"],
  keepGoing: ["Keep going", "계속 진행"],
  canceling: ["Canceling…", "취소하는 중…"],
  canceled: ["The analysis was canceled.", "분석이 취소되었습니다."],
  startAgain: ["Start again", "다시 시작"],
  failed: ["The analysis failed.", "분석에 실패했습니다."],
  completed: ["The analysis is complete.", "분석이 완료되었습니다."],
  tryAgain: ["Try again", "다시 시도"],
  retrying: ["reconnecting…", "다시 연결하는 중…"],
  tellChat: ["Tell the chat when it's done", "끝나면 채팅에 알리기"],
  skipped: ["Skipped rows", "건너뛴 행"],
  noGiftsForPerson: ["No gift fits this budget.", "예산에 맞는 선물이 없습니다."],
  showMore: ["Show more", "더 보기"],
  openFull: ["Open the full result", "전체 결과 열기"],
  tableLabel: ["People and their top picks", "사람별 1순위 선물"],
  searchName: ["Search by name", "이름으로 찾기"],
  allDepartments: ["All departments", "모든 부서"],
  noDepartment: ["(no department)", "(부서 없음)"],
  sortBy: ["Sort by", "정렬"],
  nothingInBudget: ["Nothing within budget", "예산 안 선물 없음"],
  byDepartment: ["Spend by department", "부서별 지출"],
  loading: ["Loading…", "불러오는 중…"],
  noGifts: ["No gifts matched.", "맞는 선물이 없습니다."],
  dropFile: ["Choose a file or drop it here", "파일을 선택하거나 여기에 끌어다 놓으세요"],
  upload: ["Upload", "업로드"],
  readingFile: ["Reading the file…", "파일을 읽는 중…"],
  otherFile: ["Choose another file", "다른 파일 선택"],
  start: ["Start", "시작"],
  encoding: ["Encoding", "인코딩"],
  encodingUnsure: [
    "The encoding is a guess: check the names below and choose the right one.",
    "인코딩을 추정했습니다. 아래 이름을 확인하고 맞는 인코딩을 골라 주세요.",
  ],
  choose: ["Choose…", "선택…"],
  sheet: ["Sheet", "시트"],
  noColumn: ["(none)", "(없음)"],
  rowHead: ["Row", "행"],
  firstRows: ["The file's first rows", "파일의 첫 행"],
  mergeDuplicates: ["Merge them", "한 사람으로 합치기"],
  duplicatesMerged: [
    "Rows with the same name and department are read as one person: the first row is kept.",
    "이름과 부서가 같은 행을 한 사람으로 읽습니다. 첫 행을 남깁니다.",
  ],
  keepApart: ["Keep them apart", "다른 사람으로 두기"],
  downloadPicks: ["Download the picks", "추천 결과 내려받기"],
  downloadSkipped: ["Download the skipped rows", "건너뛴 행 내려받기"],
  status: {
    pending: ["Waiting to start", "시작 대기 중"],
    running: ["Running", "진행 중"],
    completed: ["Completed", "완료됨"],
    failed: ["Failed", "실패함"],
    canceled: ["Canceled", "취소됨"],
  } satisfies Record<JobStatus, Pair>,
  stageState: {
    done: ["done", "완료"],
    active: ["in progress", "진행 중"],
    pending: ["not started", "시작 전"],
    failed: ["failed", "실패"],
    stopped: ["stopped", "중단됨"],
  } satisfies Record<StageView["state"], Pair>,
  /** A staff file's columns, and the result table's. */
  columns: {
    name: ["Name", "이름"],
    department: ["Department", "부서"],
    interests: ["Interests", "관심사"],
    budget: ["Budget", "예산"],
    id: ["Employee ID", "사번"],
    pick: ["Top pick", "1순위 선물"],
    spend: ["Spend", "지출"],
  } satisfies Record<ColumnKey | "pick" | "spend", Pair>,
  /** The widget's own failures (tool-reply.ts `localFailure`), by code. */
  localErrors: {
    unreachable: ["The host could not run the tool.", "호스트가 도구를 실행하지 못했습니다."],
    timeout: ["The host did not answer in time.", "호스트가 제때 응답하지 않았습니다."],
    bad_reply: ["The host sent a reply the widget could not read.", "호스트의 응답을 읽을 수 없습니다."],
  } as Record<string, Pair>,
} satisfies Table;

/** Sentences short enough to sit side by side, and those the same in both languages. */
const sentences = (f: Formats) =>
  ({
    stageLine: (label: string, count: string) => `${label}: ${count}`,
    waiting: [(s: number) => `Waiting ${f.duration(s)}`, (s: number) => `대기 ${f.duration(s)}`],
    running: [(s: number) => `Running ${f.duration(s)}`, (s: number) => `실행 ${f.duration(s)}`],
    ran: [(s: number) => `Ran for ${f.duration(s)}`, (s: number) => `총 실행 시간 ${f.duration(s)}`],
    waited: [(s: number) => `Waited ${f.duration(s)}`, (s: number) => `총 대기 시간 ${f.duration(s)}`],
    eta: [(s: number) => `About ${f.duration(s)} left`, (s: number) => `약 ${f.duration(s)} 남음`],
    percent: (value: number) => f.percent(value),
    /** A price in its currency (US dollars when none is known), written the locale's way. */
    price: (amount: number, currency: Currency = "USD") => f.money(amount, currency),
    row: [(n: number) => `Row ${f.index(n)}`, (n: number) => `${f.index(n)}행`],
    budget: [(price: string) => `budget ${price}`, (price: string) => `예산 ${price}`],
    emptyFile: [(name: string) => `${name} is empty.`, (name: string) => `${name} 파일이 비어 있습니다.`],
    sending: [(name: string) => `Sending ${name}…`, (name: string) => `${name} 보내는 중…`],
    budgetsIn: [(currency: string) => `budgets in ${currency}`, (currency: string) => `예산 통화 ${currency}`],
    moreSkipped: [(n: number) => `and ${f.count(n)} more`, (n: number) => `외 ${f.count(n)}행`],
    fileReady: [(name: string) => `${name} is ready.`, (name: string) => `${name} 파일이 준비되었습니다.`],
    linkUntil: [
      (at: number) => `The link works until ${f.time(at)}.`,
      (at: number) => `링크는 ${f.time(at)}까지 유효합니다.`,
    ],
  }) satisfies Table;

/** The table's words in one language: 0 English, 1 Korean. */
function wordsIn<T extends Table>(table: T, language: 0 | 1): Words<T> {
  const words: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(table))
    words[key] = isPair(value) ? value[language] : typeof value === "function" ? value : wordsIn(value, language);
  return words as Words<T>;
}
const isPair = (value: Table[string]): value is Pair<unknown> => Array.isArray(value);

const en = (f: Formats) => ({
  ...wordsIn(WORDS, 0),
  ...wordsIn(sentences(f), 0),
  language: "en" as "en" | "ko",
  /** A stage's label in this language; a stage the widget does not know keeps the server's. */
  stageLabel: (id: string, fallback: string) => (isBulkStage(id) ? STAGE_LABELS.en[id] : fallback),
  stageCount: (unit: "rows" | "people" | null, done: number, total: number) =>
    `${f.count(done)} of ${f.count(total)}${unit === null ? "" : ` ${unit}`}`,
  /** What a screen reader hears as a stage begins. */
  stageNews: (n: number, of: number, label: string) => `Stage ${n} of ${of}: ${label}`,
  keptAfterCancel: (n: number) => `Ready before it was canceled: ${f.count(n)} ${n === 1 ? "person" : "people"}`,
  people: (shown: number, total: number) => `${f.count(shown)} of ${f.count(total)} people`,
  /** "2,000 people · 3 with no gift in budget · 12 rows skipped · top picks $98,400 of the $120,000 budget" */
  resultSummary: ({ people, withGifts, skipped, topPicks, budget, unplaced, currency = "USD" }: ResultFigures) =>
    dotted(
      `${f.count(people)} ${people === 1 ? "person" : "people"}`,
      people > withGifts && `${f.count(people - withGifts)} with no gift in budget`,
      skipped > 0 && `${f.count(skipped)} ${skipped === 1 ? "row" : "rows"} skipped`,
      `top picks ${f.money(topPicks, currency)} of the ${f.money(budget, currency)} budget`,
      unplaced &&
        `${f.count(unplaced.count)} ${unplaced.count === 1 ? "interest" : "interests"} not understood: ${listed(unplaced.names, unplaced.count)}`,
    ),
  readyCount: (n: number) => `${f.count(n)} ${n === 1 ? "person is" : "people are"} ready so far.`,
  /** "120 of 50,000 people", "50,000 people so far" */
  peopleShown: (shown: number, of: number, soFar: boolean) =>
    `${shown === of ? "" : `${f.count(shown)} of `}${f.count(of)} ${of === 1 ? "person" : "people"}${soFar ? " so far" : ""}`,
  departmentLine: (people: number, spend: string, budget: string) =>
    `${f.count(people)} ${people === 1 ? "person" : "people"} · ${spend} of ${budget}`,
  giftsFor: (occasion: string, budget: string) => `Gift ideas for ${occasion}, up to ${budget}`,
  fileAsk: (occasion: string, budget: string) => `Choose the staff list for “${occasion}” (${budget} per person).`,
  fileKinds: (limit: number) => `Excel (.xlsx), CSV or TSV, up to ${f.size(limit)}`,
  tooLarge: (name: string, size: number, limit: number) =>
    `${name} is ${f.size(size)}; the largest file GiftGenius reads is ${f.size(limit)}. Save it as .xlsx (smaller) or remove columns it does not need.`,
  fileCounts: (rows: number, people: number, skipped: number) =>
    `${f.count(rows)} rows: ${f.count(people)} people, ${f.count(skipped)} skipped`,
  separator: (sep: string) => (sep === "\t" ? "tab-separated" : `separated by “${sep}”`),
  /** People whose budget buys no gift: most often budgets written in another currency. */
  lowBudgets: (people: number, cheapest: string, currency: Currency, rows: string) =>
    `The cheapest gift costs ${cheapest}. Are the budgets in ${currency}? ${people === 1 ? "1 person gets none: row" : `${f.count(people)} get none: rows`} ${rows}.`,
  /** Namesakes without an ID, kept as different people: how many groups, and the choice to merge them. */
  possibleDuplicates: (groups: number) =>
    `${f.count(groups)} ${groups === 1 ? "name appears" : "names appear"} more than once in the same department with different details, kept as different people: merge them if they are one person.`,
  duplicateRows: (name: string, department: string, rows: string) =>
    `${name}${department ? ` (${department})` : ""}: rows ${rows}`,
  /** A failure's code in words, for a server message in another language: none needed in English. */
  codeErrors: {} as Record<string, string>,
});
export type Messages = ReturnType<typeof en>;

const ko = (f: Formats): Messages => ({
  ...wordsIn(WORDS, 1),
  ...wordsIn(sentences(f), 1),
  language: "ko",
  stageLabel: (id, fallback) => (isBulkStage(id) ? STAGE_LABELS.ko[id] : fallback),
  stageCount: (unit, done, total) => {
    const word = unit === "rows" ? "행" : unit === "people" ? "명" : "개";
    return `${f.count(total)}${word} 중 ${f.count(done)}${word}`;
  },
  stageNews: (n, of, label) => `${of}단계 중 ${n}단계: ${label}`,
  keptAfterCancel: (n) => `취소 전에 준비된 결과: ${f.count(n)}명`,
  people: (shown, total) => `${f.count(total)}명 중 ${f.count(shown)}명`,
  resultSummary: ({ people, withGifts, skipped, topPicks, budget, unplaced, currency = "USD" }) =>
    dotted(
      `${f.count(people)}명`,
      people > withGifts && `예산 안 선물 없음 ${f.count(people - withGifts)}명`,
      skipped > 0 && `건너뛴 행 ${f.count(skipped)}개`,
      `1순위 합계 ${f.money(topPicks, currency)} / 예산 ${f.money(budget, currency)}`,
      unplaced && `이해하지 못한 관심사 ${f.count(unplaced.count)}개: ${listed(unplaced.names, unplaced.count)}`,
    ),
  readyCount: (n) => `지금까지 ${f.count(n)}명이 준비되었습니다.`,
  peopleShown: (shown, of, soFar) =>
    `${soFar ? "지금까지 " : ""}${shown === of ? "" : `${f.count(of)}명 중 `}${f.count(shown)}명`,
  departmentLine: (people, spend, budget) => `${f.count(people)}명 · ${spend} / ${budget}`,
  giftsFor: (occasion, budget) => `${occasion} 선물 추천, 최대 ${budget}`,
  fileAsk: (occasion, budget) => `“${occasion}” 선물을 받을 직원 명단 파일을 골라 주세요 (1인당 ${budget}).`,
  fileKinds: (limit) => `Excel(.xlsx), CSV, TSV, 최대 ${f.size(limit)}`,
  tooLarge: (name, size, limit) =>
    `${name} 파일은 ${f.size(size)}입니다. GiftGenius가 읽는 파일은 최대 ${f.size(limit)}입니다. .xlsx로 저장하거나 필요 없는 열을 지워 주세요.`,
  fileCounts: (rows, people, skipped) => `${f.count(rows)}행: ${f.count(people)}명, 건너뜀 ${f.count(skipped)}행`,
  separator: (sep) => (sep === "\t" ? "탭 구분" : `“${sep}” 구분`),
  lowBudgets: (people, cheapest, currency, rows) =>
    `가장 싼 선물이 ${cheapest}입니다. 예산이 ${currency} 금액인가요? ${f.count(people)}명은 받지 못합니다: ${rows}행.`,
  possibleDuplicates: (groups) =>
    `같은 부서에 같은 이름이 다른 내용으로 여러 번 나오는 경우가 ${f.count(groups)}건 있습니다. 다른 사람으로 두었으니 같은 사람이면 합쳐 주세요.`,
  duplicateRows: (name, department, rows) => `${name}${department ? ` (${department})` : ""}: ${rows}행`,
  codeErrors: {
    invalid_arguments: "요청에 빠지거나 잘못된 값이 있습니다.",
    no_gift_fits: "예산 안에 맞는 선물이 카탈로그에 없습니다.",
    invalid_csv: "직원 명단을 읽을 수 없습니다. 이름과 관심사 열이 있는지 확인해 주세요.",
    unreadable_file:
      "이 파일은 읽을 수 있는 스프레드시트나 CSV가 아닙니다. Excel에서 .xlsx나 CSV로 저장해 다시 보내 주세요.",
    input_too_large: "명단이 너무 큽니다. 나누어서 다시 시작해 주세요.",
    too_many_rows: "명단의 행이 너무 많습니다. 여러 파일로 나누어 주세요.",
    unknown_job: "이 분석을 찾을 수 없습니다. 보관 기간이 지나 지워졌을 수 있습니다.",
    job_not_finished: "분석이 아직 끝나지 않았습니다.",
    interrupted: "서버가 다시 시작되면서 분석이 중단되었습니다.",
    unauthorized: "이 분석을 볼 권한이 없습니다.",
    store_unavailable: "저장소에 잠시 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.",
    quota_exceeded: "작업 한도에 도달했습니다. 오래된 분석을 지우거나 나중에 다시 시도해 주세요.",
    rate_limited: "너무 많이 시작했습니다. 잠시 후 다시 시도해 주세요.",
    internal: "서버에 문제가 생겼습니다. 다시 시도해 주세요.",
  },
});

/** The parts that are there, joined by " · ". */
export const dotted = (...parts: (string | false | null | undefined)[]): string => parts.filter(Boolean).join(" · ");

/** The messages for a BCP 47 locale: Korean words for `ko*`, English otherwise; numbers in the locale's way. */
export const messagesFor = oncePer((locale: string): Messages =>
  (locale.toLowerCase().startsWith("ko") ? ko : en)(formatsFor(locale)),
);

export function useMessages(): Messages {
  return messagesFor(useHostGlobal("locale"));
}
