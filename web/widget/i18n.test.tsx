// @vitest-environment jsdom
/**
 * Every number the widget writes goes through Intl for the host's locale: counts grouped in
 * Korean as in English ("40,000명 중 20명", never "40000명 중 20명"), percentages the locale's way,
 * prices in US dollars; the stage and its one count in the widget's words.
 */
import { screen } from "@testing-library/react";
import { act } from "react";
import type { JobEvent } from "../../shared/job-events.js";
import { jobEvent } from "../../test-kit/job-events.js";
import { mountJobPanel, type MountedPanel } from "../../test-kit/widget/mount-job-panel.js";

let panel: MountedPanel;
let store: MountedPanel["store"];

function mount(locale: string, people = 3, unplaced?: { count: number; names: string[] }) {
  panel = mountJobPanel({ locale, jobs: [{ people, alreadyAppended: Infinity, unplaced }] });
  store = panel.store;
}
afterEach(() => panel.dispose());

/** A running job half-way through 40,000 rows, with the server's message in its own words. */
const halfWay = () => [
  jobEvent("job-1", 1, "job.created"),
  jobEvent("job-1", 2, "job.started"),
  jobEvent("job-1", 3, "job.progress", {
    stage: "match",
    percentage: 50,
    processed: 20_000,
    total: 40_000,
    message: "server wrote 20000/40000",
  }),
];
const dispatch = (events: JobEvent[] = halfWay()) => act(() => store.getState().dispatch("job-1", events));
const line = () => document.querySelector(".gg-current")?.textContent ?? "";

describe("numbers through Intl", () => {
  it("groups counts in Korean and writes the percentage the Korean way", () => {
    mount("ko-KR");
    dispatch();
    expect(line()).toBe("사람별 선물 고르기: 40,000명 중 20,000명");
    expect(screen.getByText("50%")).toBeTruthy();
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("50%");
    // the count is said once, in the widget's words: the server's message is not shown beside it
    expect(screen.queryByText("server wrote 20000/40000")).toBeNull();
  });

  it("writes counts and percentages in the locale's own way, with English words for a locale it has none for", () => {
    mount("de-DE");
    dispatch();
    expect(line()).toBe("Matching gifts per person: 20.000 of 40.000 people");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("50\u00a0%");
  });

  it("falls back to English numbers when the host's locale tag is not one Intl knows", () => {
    mount("not a locale!");
    dispatch();
    expect(line()).toBe("Matching gifts per person: 20,000 of 40,000 people");
  });

  it("counts the people of a result in Korean with grouping, and prices in dollars", async () => {
    mount("ko-KR", 40_000);
    dispatch(panel.fake.historyOf("job-1"));
    // the table's count once every row is in (eight calls of 5,000, which a busy machine takes
    // more than findByText's default second to answer)
    expect(await screen.findByText("40,000명", {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText("40000명")).toBeNull();
    expect(screen.getAllByText("$39.50").length).toBeGreaterThan(0);
    // the summary is the widget's, from the result's figures, in the host's language
    expect(screen.getByText("40,000명 · 1순위 합계 $1,580,000 / 예산 $2,000,000")).toBeTruthy();
  });

  it("words the result's figures in English, money written one way", async () => {
    mount("en-US", 3);
    dispatch(panel.fake.historyOf("job-1"));
    expect(await screen.findByText("3 people · top picks $118.50 of the $150 budget")).toBeTruthy();
  });

  it.each([
    ["en-US", "3 people · top picks $118.50 of the $150 budget · 12 interests not understood: surfing, movies, …"],
    ["ko-KR", "3명 · 1순위 합계 $118.50 / 예산 $150 · 이해하지 못한 관심사 12개: surfing, movies, …"],
  ])("says which interests were not understood (%s), so the list can be fixed", async (locale, summary) => {
    mount(locale, 3, { count: 12, names: ["surfing", "movies"] });
    dispatch(panel.fake.historyOf("job-1"));
    expect(await screen.findByText(summary)).toBeTruthy();
  });
});
