// @vitest-environment jsdom
/**
 * The job panel fed straight from the store (no follow loop): duplicated and shuffled events
 * still show the right bar, stages and a single "Completed"; Escape leaves fullscreen.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { JobEvent } from "../../../shared/job-events.js";
import { TOOL } from "../../../shared/tools.js";
import { act } from "react";
import { jobEvent, jobHistory } from "../../../test-kit/job-events.js";
import { mountJobPanel, type MountedPanel } from "../../../test-kit/widget/mount-job-panel.js";

let panel: MountedPanel;
let store: MountedPanel["store"];
const plan = { progressPerStage: 4, alreadyAppended: Infinity };
const history = jobHistory("job-1", { progress: 3 * plan.progressPerStage });
const shuffled = (events: JobEvent[]) =>
  [...events, ...events.slice(0, 5)]
    .map((e, i) => [(i * 7919) % 13, e] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, e]) => structuredClone(e));

beforeEach(() => {
  panel = mountJobPanel({ jobs: [plan] }, [{ id: "parse", label: "Parsing the employee list" }]);
  store = panel.store;
});
afterEach(() => panel.dispose());

const stageStates = () =>
  within(screen.getByRole("list", { name: "Stages" }))
    .getAllByRole("listitem")
    .map((li) => `${li.querySelector(".gg-stage-label")?.textContent}:${li.dataset.state}`);
const dispatch = (events: JobEvent[]) => act(() => store.getState().dispatch("job-1", events));

describe("JobPanel over the store", () => {
  it("shows Starting… and the planned stages before any event, and no bar that could flash 0 %", () => {
    expect(screen.getByText("Starting…", { selector: ".gg-status" })).toBeTruthy();
    // the one live region says nothing until the job does something
    expect(screen.getByRole("status").textContent).toBe("");
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect(stageStates()).toEqual(["Parsing the employee list:pending"]);
  });

  it("shows the bar, current stage and stage states from shuffled, duplicated events", () => {
    const upTo = history.findIndex(
      (e) => e.type === "job.progress" && e.payload.stage === "match" && e.payload.processed === 6,
    );
    dispatch(shuffled(history.slice(0, upTo + 1)));
    const last = history[upTo];
    const pct = last.type === "job.progress" ? last.payload.percentage : -1;
    const bar = screen.getByRole("progressbar");
    expect(bar.getAttribute("aria-valuenow")).toBe(String(pct));
    expect(bar.getAttribute("aria-valuemin")).toBe("0");
    expect(bar.getAttribute("aria-valuemax")).toBe("100");
    expect(screen.getByText(`${pct}%`)).toBeTruthy();
    expect(screen.getByText(/^Matching gifts per person: 6 of [\d,]+ people$/)).toBeTruthy();
    expect(stageStates()).toEqual([
      "Parsing the employee list:done",
      "Matching gifts per person:active",
      "Writing the result:pending",
    ]);
    expect(screen.getByText("Running", { selector: ".gg-status" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("Stage 2 of 3: Matching gifts per person");
    expect(screen.getByRole("button", { name: "Cancel" })).toBeTruthy();
  });

  it("says Completed exactly once and loads the result once, however many completions arrive", async () => {
    const completed = history.filter((e) => e.type === "job.completed");
    dispatch(shuffled(history));
    for (let i = 0; i < 5; i++) dispatch([...completed, ...shuffled(history.slice(-4))]);
    expect(screen.getAllByText("Completed")).toHaveLength(1);
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
    expect(stageStates()).toEqual([
      "Parsing the employee list:done",
      "Matching gifts per person:done",
      "Writing the result:done",
    ]);
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
    expect(await screen.findByText("Chess set 1")).toBeTruthy();
    expect(panel.fake.argsOf(TOOL.getJobResult)).toEqual([{ jobId: "job-1", offset: 0, limit: 20 }]);
  });

  it("writes the budgets and prices in the job's currency, as job.created said it", async () => {
    const inWon = history.map((e) =>
      e.type === "job.created" ? { ...e, payload: { ...e.payload, currency: "KRW" as const } } : e,
    );
    dispatch(inWon);
    expect(await screen.findByText("Chess set 1")).toBeTruthy();
    // the table's budgets and spend, and the departments' totals (the fake's figures name no currency)
    const text = document.body.textContent ?? "";
    expect(text).toContain("Person 1R&D₩50Chess set 1₩40");
    expect(text).toContain("2 people · ₩79 of ₩100");
    expect(text).not.toMatch(/\$(40|50|79|100)\b/);
  });

  it("keeps the people composed before a cancel on screen, and asks for nothing more", async () => {
    panel.dispose();
    panel = mountJobPanel({ jobs: [{ people: 3, composedSoFar: 2 }] });
    store = panel.store;
    dispatch([
      jobEvent("job-1", 1, "job.created"),
      jobEvent("job-1", 2, "job.started"),
      jobEvent("job-1", 3, "job.progress", { stage: "compose", percentage: 90, processed: 2, total: 3 }),
    ]);
    // the table fills in with the people composed so far
    expect(await screen.findByText("Person 2")).toBeTruthy();
    expect(screen.getByText("2 people so far")).toBeTruthy();
    const asked = panel.fake.calls.length;
    dispatch([jobEvent("job-1", 4, "job.canceled")]);
    expect(await screen.findByText("Ready before it was canceled: 2 people")).toBeTruthy();
    expect(screen.getByText("Person 2")).toBeTruthy();
    expect(screen.getByText("The analysis was canceled.", { selector: ".gg-outcome p" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("The analysis was canceled.");
    expect(panel.fake.calls).toHaveLength(asked);
  });

  it("says a dropped reply in the timing line, with no error block below, and shows a lasting failure", () => {
    dispatch(history.slice(0, 4));
    act(() => store.getState().noteFailure("job-1", { code: "unreachable", message: "fetch failed", transient: true }));
    expect(document.querySelector(".gg-timing")?.textContent).toContain("reconnecting…");
    expect(document.querySelector(".gg-error")).toBeNull();
    act(() =>
      store.getState().noteFailure("job-1", { code: "unknown_job", message: "No job job-1.", transient: false }),
    );
    expect(document.querySelector(".gg-timing")?.textContent).not.toContain("reconnecting…");
    expect(screen.getByText("No job job-1.", { selector: ".gg-error p" })).toBeTruthy();
    // told once, by the live region; the text below is not a second one
    expect(screen.getByRole("status").textContent).toBe("No job job-1.");
    expect(document.querySelector(".gg-error")?.getAttribute("role")).toBe("none");
  });

  it("asks the host for the inline card on Escape in fullscreen, but not for an Escape that clears a search", async () => {
    dispatch(history);
    const search = await screen.findByRole("searchbox", { name: "Search by name" });
    await userEvent.type(search, "Person");
    await userEvent.keyboard("{Escape}");
    expect(panel.fake.argsOf("requestDisplayMode")).toEqual([]);
    await userEvent.clear(search);
    await userEvent.keyboard("{Escape}");
    expect(panel.fake.argsOf("requestDisplayMode")).toEqual([{ mode: "inline" }]);
    // inline, Escape is the host's business
    await waitFor(() => expect(screen.queryByRole("searchbox")).toBeNull());
    await userEvent.keyboard("{Escape}");
    expect(panel.fake.argsOf("requestDisplayMode")).toHaveLength(1);
  });
});
