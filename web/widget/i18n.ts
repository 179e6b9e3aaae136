/**
 * The widget's own words, in English and Korean, chosen by the host's `locale` (`ko*` → Korean).
 * Stage labels, summaries and errors come from the server and are shown as they are.
 */
import type { JobStatus, StageView } from "../../shared/job-view.js";
import { useHostGlobal } from "./host.js";

const en = {
  noHost:
    "GiftGenius shows its results inside a chat app, such as ChatGPT, Claude, VS Code or Goose. Open it from a conversation there; on its own, this page cannot reach the app.",
  connecting: "Connecting to the chat app…",
  toolCancelled: "The request was canceled before it finished.",
  waitingForTool: "Waiting for the tool result…",
  nothingToShow: "This tool result has nothing to show.",
  toolFailed: "The tool call failed.",
  jobTitle: "Gift analysis",
  starting: "Starting…",
  progress: "Progress",
  stages: "Stages",
  status: {
    pending: "Waiting to start",
    running: "Running",
    completed: "Completed",
    failed: "Failed",
    canceled: "Canceled",
  } satisfies Record<JobStatus, string>,
  stageState: {
    done: "done",
    active: "in progress",
    pending: "not started",
    failed: "failed",
    stopped: "stopped",
  } satisfies Record<StageView["state"], string>,
  now: (label: string) => `Now: ${label}`,
  elapsed: (d: string) => `Elapsed ${d}`,
  eta: (d: string) => `About ${d} left`,
  counts: (done: number, total: number) => `${done} of ${total}`,
  cancel: "Cancel",
  canceling: "Canceling…",
  canceled: "The analysis was canceled.",
  failed: "The analysis failed.",
  tryAgain: "Try again",
  retrying: "Lost contact with the server; retrying…",
  skipped: "Skipped rows",
  row: (n: number) => `Row ${n}`,
  people: (shown: number, total: number) => `${shown} of ${total} people`,
  budget: (price: string) => `budget ${price}`,
  noGiftsForPerson: "No gift fits this budget.",
  showMore: "Show more",
  loading: "Loading…",
  fullscreen: "Open fullscreen",
  giftsFor: (occasion: string, budget: string) => `Gift ideas for ${occasion}, up to ${budget}`,
  noGifts: "No gifts matched.",
  localErrors: {
    unreachable: "The host could not run the tool.",
    timeout: "The host did not answer in time.",
    bad_reply: "The host sent a reply the widget could not read.",
  } as Record<string, string>,
};
export type Messages = typeof en;

const ko: Messages = {
  noHost:
    "GiftGenius는 ChatGPT, Claude, VS Code, Goose 같은 채팅 앱 안에서 결과를 보여 줍니다. 그 앱의 대화에서 열어 주세요. 이 페이지만으로는 앱에 연결할 수 없습니다.",
  connecting: "채팅 앱에 연결하는 중…",
  toolCancelled: "요청이 끝나기 전에 취소되었습니다.",
  waitingForTool: "도구 결과를 기다리는 중…",
  nothingToShow: "이 도구 결과에는 표시할 내용이 없습니다.",
  toolFailed: "도구 호출에 실패했습니다.",
  jobTitle: "선물 분석",
  starting: "시작하는 중…",
  progress: "진행률",
  stages: "단계",
  status: { pending: "시작 대기 중", running: "진행 중", completed: "완료됨", failed: "실패함", canceled: "취소됨" },
  stageState: { done: "완료", active: "진행 중", pending: "시작 전", failed: "실패", stopped: "중단됨" },
  now: (label) => `현재: ${label}`,
  elapsed: (d) => `경과 ${d}`,
  eta: (d) => `약 ${d} 남음`,
  counts: (done, total) => `${total}개 중 ${done}개`,
  cancel: "취소",
  canceling: "취소하는 중…",
  canceled: "분석이 취소되었습니다.",
  failed: "분석에 실패했습니다.",
  tryAgain: "다시 시도",
  retrying: "서버와 연결이 끊겼습니다. 다시 시도하는 중…",
  skipped: "건너뛴 행",
  row: (n) => `${n}행`,
  people: (shown, total) => `${total}명 중 ${shown}명`,
  budget: (price) => `예산 ${price}`,
  noGiftsForPerson: "예산에 맞는 선물이 없습니다.",
  showMore: "더 보기",
  loading: "불러오는 중…",
  fullscreen: "전체 화면으로 열기",
  giftsFor: (occasion, budget) => `${occasion} 선물 추천, 최대 ${budget}`,
  noGifts: "맞는 선물이 없습니다.",
  localErrors: {
    unreachable: "호스트가 도구를 실행하지 못했습니다.",
    timeout: "호스트가 제때 응답하지 않았습니다.",
    bad_reply: "호스트의 응답을 읽을 수 없습니다.",
  },
};

/** The messages for a BCP 47 locale. */
const messagesFor = (locale: string): Messages => (locale.toLowerCase().startsWith("ko") ? ko : en);

/** The messages for the host's locale. */
export function useMessages(): Messages {
  return messagesFor(useHostGlobal("locale"));
}

/** A price in US dollars, written the locale's way. */
export function formatPrice(amount: number, locale: string): string {
  const options = { style: "currency", currency: "USD", maximumFractionDigits: 2 } as const;
  try {
    return new Intl.NumberFormat(locale, options).format(amount);
  } catch {
    return new Intl.NumberFormat("en", options).format(amount); // the host's locale tag was not one Intl knows
  }
}

/** A duration as m:ss (or h:mm:ss), the same in both languages. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(r)}` : `${m}:${pad(r)}`;
}
