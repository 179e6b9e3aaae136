// @vitest-environment jsdom
/**
 * The stage list once a job has ended, as a person sees it and as a screen reader reads it:
 * the stage a failed job was in is marked failed, the stage a canceled one was in stopped, the
 * ones before done, the ones after not started, and nothing is "in progress" any more; the live
 * region tells the end with its outcome.
 */
import { screen, within } from "@testing-library/react";
import { act } from "react";
import type { JobEvent } from "../../../shared/job-events.js";
import { jobHistory } from "../../../test-kit/job-events.js";
import { mountJobPanel, type MountedPanel } from "../../../test-kit/widget/mount-job-panel.js";

let panel: MountedPanel;
let store: MountedPanel["store"];

function mount(locale = "en-US") {
  panel = mountJobPanel({ locale });
  store = panel.store;
}
afterEach(() => panel.dispose());

/** Three stages over 9 steps: the fifth progress event is in the second stage, "Matching gifts per person". */
const endingIn = (ending: "failed" | "canceled") => jobHistory("job-1", { steps: 9, progress: 5, ending });
const dispatch = (events: JobEvent[]) => act(() => store.getState().dispatch("job-1", events));
const list = () => screen.getByRole("list", { name: /Stages|단계/ });
const states = () =>
  within(list())
    .getAllByRole("listitem")
    .map((li) => li.dataset.state);
/** What a screen reader reads for each stage: its text without the marks hidden from it. */
const spoken = () =>
  within(list())
    .getAllByRole("listitem")
    .map((li) => {
      const copy = li.cloneNode(true) as HTMLElement;
      copy.querySelectorAll("[aria-hidden='true']").forEach((e) => e.remove());
      return copy.textContent;
    });
const nothingActive = () => {
  expect(states()).not.toContain("active");
  expect(list().querySelector("[aria-current]")).toBeNull();
  expect(screen.queryByText(/in progress|진행 중/)).toBeNull();
  expect(document.querySelector(".gg-current")).toBeNull();
};

describe("the stage list of an ended job", () => {
  it("marks the stage a failed job was in failed, and leaves nothing in progress", () => {
    mount();
    const history = endingIn("failed");
    dispatch(history.slice(0, -1));
    expect(states()).toEqual(["done", "active", "pending"]);
    expect(screen.getByRole("status").textContent).toBe("Stage 2 of 3: Matching gifts per person");
    expect(spoken()).toEqual([
      "Parsing the employee list (done)",
      "Matching gifts per person (in progress)",
      "Writing the result (not started)",
    ]);

    dispatch(history.slice(-1));
    expect(screen.getByText("Failed", { selector: ".gg-status" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("The analysis failed. The gift catalog is unavailable.");
    expect(states()).toEqual(["done", "failed", "pending"]);
    expect(spoken()).toEqual([
      "Parsing the employee list (done)",
      "Matching gifts per person (failed)",
      "Writing the result (not started)",
    ]);
    nothingActive();
    // never busy: a busy region's live news would wait until it was not
    expect(list().closest("section")?.getAttribute("aria-busy")).toBeNull();
  });

  it("marks the stage a canceled job was in stopped, the ones before done", () => {
    mount();
    dispatch([...endingIn("canceled")].reverse());
    expect(screen.getByText("Canceled", { selector: ".gg-status" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("The analysis was canceled.");
    expect(states()).toEqual(["done", "stopped", "pending"]);
    expect(spoken()).toEqual([
      "Parsing the employee list (done)",
      "Matching gifts per person (stopped)",
      "Writing the result (not started)",
    ]);
    nothingActive();
  });

  it("ends a job canceled before any progress in its first stage", () => {
    mount();
    dispatch(jobHistory("job-1", { started: false, progress: 0, ending: "canceled" }));
    expect(states()).toEqual(["stopped", "pending", "pending"]);
    nothingActive();
  });

  it.each([
    ["failed", "실패"],
    ["canceled", "중단됨"],
  ] as const)("says a %s job's stage in Korean", (ending, word) => {
    mount("ko-KR");
    dispatch(endingIn(ending));
    // the stages the widget knows in Korean, one it does not as the server named it
    expect(spoken()).toEqual(["직원 목록 읽기 (완료)", `사람별 선물 고르기 (${word})`, "Writing the result (시작 전)"]);
    expect(screen.getByRole("status").textContent).toMatch(/^분석(에 실패했습니다|이 취소되었습니다)\./);
    nothingActive();
  });
});
