// @vitest-environment jsdom
/**
 * The whole widget over the fake host: jobs followed through faults to completion, resume from
 * widget state, failure and retry, cancel, unmount, gift cards, no host, Korean, theme.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TOOL } from "../../shared/tools.js";
import { App } from "./app.js";
import { installFakeHost, START_INPUT, type FakeHost, type FakeHostOptions } from "../../test-kit/widget/fake-host.js";
import type { FollowTuning } from "./follow-job.js";
import { createHost } from "./host-context.js";
import type { Host } from "./host.js";
import { createJobViews, type JobViews } from "./job-views.js";

const FAST: FollowTuning = { waitMs: 0, backoff: { baseMs: 1, maxMs: 4 }, idleMs: 1, callTimeoutMs: 2000 };
const SLOW = { timeout: 4000 };
// The follow loop and result loader update the stores from timers, as they do in the host; the tests
// wait for what a person would see (findBy/waitFor) instead of wrapping each update in act().
beforeEach(() => Reflect.set(globalThis, "IS_REACT_ACT_ENVIRONMENT", false));
let fake: FakeHost | undefined;
let host: Host | undefined;
let store: JobViews;

function mount(options: FakeHostOptions | null) {
  fake = options === null ? undefined : installFakeHost(options);
  host = createHost();
  store = createJobViews();
  return render(<App host={host} jobStore={store} tuning={FAST} />);
}
afterEach(() => {
  host?.dispose();
  fake?.uninstall();
  fake = undefined;
});

const bar = () => screen.getByRole("progressbar").getAttribute("aria-valuenow");
const stageStates = () =>
  within(screen.getByRole("list", { name: /Stages|단계/ }))
    .getAllByRole("listitem")
    .map((li) => li.dataset.state);
const eventsCalls = () => fake?.argsOf(TOOL.getJobEvents) ?? [];

describe("following a bulk job", () => {
  it.each(["full", "legacy", "alternate"] as const)(
    "reaches completion through duplicates, reordering and failures (%s replies)",
    async (shape) => {
      // a host with no fullscreen: everything inline, the people as cards
      mount({
        jobs: [{ people: 25, skipped: [{ row: 9, reason: "No interests given" }] }],
        batchSize: 3,
        faults: { duplicate: true, reorder: true, gaps: true, rejectEvery: 4, shape },
        noDisplayModes: true,
      });
      expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
      expect(screen.getAllByText("Completed")).toHaveLength(1);
      expect(bar()).toBe("100");
      expect(stageStates()).toEqual(["done", "done", "done"]);
      expect(await screen.findByText("Person 20")).toBeTruthy();
      expect(screen.getByText("Row 9")).toBeTruthy();
      expect(screen.getByText(/No interests given/)).toBeTruthy();
      expect(screen.getAllByText("$39.50").length).toBeGreaterThan(0);
      expect(screen.queryByText("Person 21")).toBeNull();

      await userEvent.click(screen.getByRole("button", { name: "Show more" }));
      expect(await screen.findByText("Person 25")).toBeTruthy();
      expect(screen.queryByRole("button", { name: "Show more" })).toBeNull();
      expect(fake!.argsOf(TOOL.getJobResult).map((a) => a.offset)).toEqual([0, 20]);
      expect(store.getState().diagnostics["job-1"].duplicates).toBeGreaterThan(0);
    },
  );

  it("is a short card inline, and the full result a table in fullscreen: search, department, sort", async () => {
    mount({ jobs: [{ people: 60, skipped: [{ row: 9, reason: "No interests given" }] }], batchSize: 5 });
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
    // inline: the summary and two actions, no stage list, no people
    expect(await screen.findByText("60 people · 1 row skipped · top picks $2,370 of the $3,000 budget")).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Stages" })).toBeNull();
    expect(screen.queryByText("Person 1")).toBeNull();
    expect(screen.getByRole("group", { name: "Download the picks" })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Open the full result" }));
    expect(fake!.argsOf("requestDisplayMode")).toEqual([{ mode: "fullscreen" }]);

    // fullscreen: the stages, then every person in the table, read 5,000 at a time
    expect(await screen.findByText("60 people")).toBeTruthy();
    expect(screen.getByRole("list", { name: "Stages" })).toBeTruthy();
    expect(fake!.argsOf(TOOL.getJobTable)).toEqual([{ jobId: "job-1", offset: 0 }]);
    const people = () => screen.getByRole("table", { name: "People and their top picks" });
    const names = () =>
      within(people())
        .getAllByRole("row")
        .slice(1)
        .map((row) => row.querySelector(".gg-c-name")?.textContent);
    await userEvent.type(screen.getByRole("searchbox", { name: "Search by name" }), "person 1");
    // "Person 1" and "Person 10" to "Person 19"
    expect(names()).toEqual(["Person 1", ...Array.from({ length: 10 }, (_, i) => `Person ${10 + i}`)]);
    expect(screen.getByText("11 of 60 people")).toBeTruthy();
    await userEvent.clear(screen.getByRole("searchbox", { name: "Search by name" }));
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Department" }), "R&D");
    expect(screen.getByText("30 of 60 people")).toBeTruthy();
    expect(names()[0]).toBe("Person 1");
    const heading = (name: string) => screen.getByRole("columnheader", { name });
    const sortBy = (name: string) => within(heading(name)).getByRole("button");
    await userEvent.click(sortBy("Name"));
    expect(heading("Name").getAttribute("aria-sort")).toBe("ascending");
    // names in the locale's order, numbers within them as numbers
    expect(names().slice(0, 3)).toEqual(["Person 1", "Person 3", "Person 5"]);
    await userEvent.click(sortBy("Name"));
    expect(names().slice(0, 2)).toEqual(["Person 59", "Person 57"]);
    // the spend by department: R&D and the people with none, alike in this list
    expect(screen.getByText("Spend by department")).toBeTruthy();
    expect(screen.getByText("(no department)", { selector: ".gg-department-name" })).toBeTruthy();
    expect(screen.getAllByText("30 people · $1,185 of $1,500")).toHaveLength(2);
  });

  it("comes back to a job named in widget state by reading its events from the first", async () => {
    mount({ jobs: [{ alreadyAppended: 7 }], batchSize: 2, widgetState: { jobId: "job-1" }, noDisplayModes: true });
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
    // nothing shown yet, so the first call asks from the start without waiting
    expect(eventsCalls()[0]).toMatchObject({ jobId: "job-1", afterSeq: 0, waitMs: 0 });
    expect(stageStates()).toEqual(["done", "done", "done"]);
    expect(screen.getAllByText("Completed")).toHaveLength(1);
    expect(store.getState().diagnostics["job-1"].duplicates).toBe(0);
  });

  it("shows the failure, its hint and Try again, which starts the same analysis and follows the new job", async () => {
    mount({ jobs: [{ outcome: "failed", retryable: true }, { outcome: "completed" }], batchSize: 5 });
    expect(await screen.findByText("The gift catalog is unavailable.", {}, SLOW)).toBeTruthy();
    expect(screen.getByText("Try again in a minute.")).toBeTruthy();
    expect(screen.getByText("Failed")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
    // the same input, in the person's language as the host says it
    expect(fake!.argsOf(TOOL.startBulk)).toEqual([{ ...START_INPUT, locale: "en-US" }]);
    expect(eventsCalls().at(-1)).toMatchObject({ jobId: "job-2" });
    expect(fake!.argsOf("setWidgetState").at(-1)).toMatchObject({ state: { jobId: "job-2" } });
  });

  it("starts again in the person's language as their host says it, in the ended job's currency", async () => {
    mount({
      jobs: [{ outcome: "failed", currency: "USD" }, {}],
      batchSize: 5,
      locale: "ko-KR",
      // the model said English and no currency: the job was priced in dollars from its locale
      toolInput: { ...START_INPUT, locale: "en" },
    });
    await userEvent.click(await screen.findByRole("button", { name: "다시 시도" }, SLOW));
    await waitFor(() => expect(fake!.argsOf(TOOL.startBulk)).toHaveLength(1));
    expect(fake!.argsOf(TOOL.startBulk)[0]).toEqual({ ...START_INPUT, locale: "ko-KR", currency: "USD" });
  });

  it("offers no Try again when the failure is not retryable", async () => {
    mount({ jobs: [{ outcome: "failed", retryable: false }], batchSize: 5 });
    expect(await screen.findByText("Try again in a minute.", {}, SLOW)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
  });

  it("cancels through cancel_job once asked twice, says so plainly and offers to start again", async () => {
    mount({ jobs: [{ progressPerStage: 400 }, {}], batchSize: 1, latencyMs: 5 });
    await userEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    // "Keep going" takes the question back, and nothing was sent
    await userEvent.click(screen.getByRole("button", { name: "Keep going" }));
    expect(fake!.argsOf(TOOL.cancelJob)).toEqual([]);
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByText("Cancel the analysis?")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Yes, cancel" }));
    expect(await screen.findByText("The analysis was canceled.", { selector: ".gg-outcome p" }, SLOW)).toBeTruthy();
    expect(fake!.argsOf(TOOL.cancelJob)).toEqual([{ jobId: "job-1" }]);
    expect(screen.getByText("Canceled")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
    expect(document.querySelector(".gg-progress")?.getAttribute("data-status")).toBe("canceled");
    await userEvent.click(screen.getByRole("button", { name: "Start again" }));
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
    // the same input, in the person's language as the host says it
    expect(fake!.argsOf(TOOL.startBulk)).toEqual([{ ...START_INPUT, locale: "en-US" }]);
  });

  it("leaves no loop behind after unmount", async () => {
    const view = mount({ jobs: [{ progressPerStage: 400 }], batchSize: 1, latencyMs: 2 });
    await waitFor(() => expect(eventsCalls().length).toBeGreaterThan(3));
    view.unmount();
    const calls = eventsCalls().length;
    await new Promise((r) => setTimeout(r, 40));
    expect(eventsCalls().length).toBe(calls);
  });

  it("shows the server's error when the tool output is one", () => {
    mount({
      toolOutput: { error: { code: "invalid_csv", message: "Row 3 has no name.", hint: "Add a name column." } },
    });
    expect(screen.getByText("Row 3 has no name.")).toBeTruthy();
    expect(screen.getByText("Add a name column.")).toBeTruthy();
  });
});

describe("the widget's other views", () => {
  it("renders suggest_gifts results as gift cards", () => {
    const gifts = [
      { id: "g1", name: "Pour-over kit", price: 45, category: "coffee", reason: "Loves coffee" },
      { id: "g2", name: "Trail guide", price: 18.5, category: "books", reason: "Hikes every weekend" },
    ];
    mount({ toolOutput: { occasion: "farewell", budget: 50, gifts } });
    const cards = screen.getAllByRole("listitem");
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).getByText("Pour-over kit")).toBeTruthy();
    expect(within(cards[0]).getByText("coffee")).toBeTruthy();
    expect(within(cards[0]).getByText("$45")).toBeTruthy();
    expect(within(cards[1]).getByText("Hikes every weekend")).toBeTruthy();
    expect(screen.getByText("Gift ideas for farewell, up to $50")).toBeTruthy();
    expect(screen.queryByRole("progressbar")).toBeNull();
  });

  it("says plainly, in words a user knows, that it must be opened from a chat app", async () => {
    mount(null);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/inside a chat app, such as ChatGPT, Claude, VS Code or Goose/);
    expect(alert.textContent).not.toMatch(/window\.openai|MCP/);
  });

  it("speaks Korean for a ko locale and follows the theme and height", async () => {
    const { container } = mount({
      locale: "ko-KR",
      theme: "dark",
      maxHeight: 320,
      jobs: [{ progressPerStage: 400 }],
      batchSize: 1,
      latencyMs: 5,
    });
    expect(await screen.findByRole("button", { name: "취소" })).toBeTruthy();
    // the live region tells the stage under way, in Korean
    await waitFor(() => expect(screen.getByRole("status").textContent).toMatch(/^3단계 중 [123]단계: /));
    expect(await screen.findByText("진행 중")).toBeTruthy();
    const root = container.querySelector<HTMLElement>(".gg-root")!;
    expect(root.dataset.theme).toBe("dark");
    expect(root.style.maxHeight).toBe("320px");
    fake!.setGlobals({ theme: "light", locale: "en-US" });
    expect(await screen.findByRole("button", { name: "Cancel" })).toBeTruthy();
    expect(root.dataset.theme).toBe("light");
  });

  it("waits plainly while the tool output has not arrived, then follows it", async () => {
    mount({ toolOutput: null, batchSize: 10 });
    expect(screen.getByText("Waiting for the tool result…")).toBeTruthy();
    fake!.setGlobals({
      toolOutput: { jobId: "job-1", status: "pending", stages: [], resultUri: "gifts://jobs/job-1/result" },
    });
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
  });
});
