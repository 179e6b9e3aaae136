// @vitest-environment jsdom
/**
 * The card's view state under its tool result's view id: a card rendered again for the same result
 * comes back with its search, department, sort and display mode; another result starts afresh.
 */
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "./app.js";
import type { FollowTuning } from "./follow-job.js";
import { createHost } from "./host-context.js";
import type { Host } from "./host.js";
import { installFakeHost, type FakeHost, type FakeHostOptions } from "../../test-kit/widget/fake-host.js";

const FAST: FollowTuning = { waitMs: 0, backoff: { baseMs: 1, maxMs: 4 }, idleMs: 1, callTimeoutMs: 2000 };
const SLOW = { timeout: 4000 };
beforeEach(() => Reflect.set(globalThis, "IS_REACT_ACT_ENVIRONMENT", false));
let fake: FakeHost | undefined;
let host: Host | undefined;

/** The card of a finished job of 30 people, for the tool result with view id `viewUUID`. */
function mount(viewUUID: string, options: FakeHostOptions = {}) {
  fake = installFakeHost({
    jobs: [{ people: 30, alreadyAppended: 100 }],
    toolResponseMetadata: { viewUUID },
    displayMode: "fullscreen",
    ...options,
  });
  host = createHost();
  return render(<App host={host} tuning={FAST} />);
}
function unmount(view: ReturnType<typeof render>) {
  view.unmount();
  host?.dispose();
  fake?.uninstall();
}
afterEach(() => {
  host?.dispose();
  fake?.uninstall();
  localStorage.clear();
});

const search = () => screen.getByRole<HTMLInputElement>("searchbox", { name: "Search by name" });
const department = () => screen.getByRole<HTMLSelectElement>("combobox", { name: "Department" });
const names = () => screen.getAllByText(/^Person \d+$/).map((e) => e.textContent);

describe("view state", () => {
  it("brings a card rendered again back to its search, department and sort; another result starts afresh", async () => {
    const first = mount("view-1");
    expect(await screen.findByText("30 people", {}, SLOW)).toBeTruthy();
    await userEvent.selectOptions(department(), "R&D");
    await userEvent.click(screen.getByRole("button", { name: /^Name/ }));
    await userEvent.click(screen.getByRole("button", { name: /^Name/ }));
    await userEvent.type(search(), "person 2");
    expect(names()).toEqual(["Person 29", "Person 27", "Person 25", "Person 23", "Person 21"]);
    unmount(first);

    const again = mount("view-1");
    expect(await screen.findByText("5 of 30 people", {}, SLOW)).toBeTruthy();
    expect(search().value).toBe("person 2");
    expect(department().value).toBe("R&D");
    expect(names()).toEqual(["Person 29", "Person 27", "Person 25", "Person 23", "Person 21"]);
    unmount(again);

    mount("view-2");
    expect(await screen.findByText("30 people", {}, SLOW)).toBeTruthy();
    expect(search().value).toBe("");
    expect(names().slice(0, 2)).toEqual(["Person 1", "Person 2"]);
  });

  it("asks the host again for the display mode the card was left in", async () => {
    const first = mount("view-3", { displayMode: "inline" });
    await userEvent.click(await screen.findByRole("button", { name: "Open the full result" }, SLOW));
    await waitFor(() => expect(fake!.openai.displayMode).toBe("fullscreen"));
    unmount(first);

    mount("view-3", { displayMode: "inline" });
    await waitFor(() => expect(fake!.argsOf("requestDisplayMode")).toEqual([{ mode: "fullscreen" }]));
    expect(await screen.findByRole("searchbox", { name: "Search by name" }, SLOW)).toBeTruthy();
  });

  it("asks for nothing where the card has no view id", async () => {
    fake = installFakeHost({ jobs: [{ alreadyAppended: 100 }], displayMode: "inline" });
    host = createHost();
    render(<App host={host} tuning={FAST} />);
    expect(await screen.findByText("Completed", {}, SLOW)).toBeTruthy();
    expect(fake.argsOf("requestDisplayMode")).toEqual([]);
    expect(localStorage.length).toBe(0);
  });
});
