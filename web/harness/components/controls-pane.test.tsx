// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TOOL } from "../../../shared/tools.js";
import type { HarnessSession } from "../session.js";
import { createHarnessStore } from "../store.js";
import { ControlsPane } from "./controls-pane.js";

afterEach(cleanup);

function setup() {
  const store = createHarnessStore(() => Date.UTC(2026, 0, 2, 3, 4, 5));
  store.getState().setConnection({ status: "ready", sessionId: "s", server: "x", protocol: "2025-11-25" });
  const session = {
    connect: vi.fn(),
    setProtocol: vi.fn(),
    runTool: vi.fn(async () => undefined),
    reopenJob: vi.fn(async () => undefined),
    widgetCallTool: vi.fn(),
    handOverFile: vi.fn(),
    close: vi.fn(),
  } satisfies HarnessSession;
  render(<ControlsPane store={store} session={session} />);
  return { store, session };
}

const form = () => screen.getByRole("form", { name: "Bulk gift analysis" });
const start = () => within(form()).getByRole("button", { name: "Start bulk analysis" });

describe("the bulk form", () => {
  it("starts at the pace chosen, with the text its fields hold in the store", async () => {
    const { store, session } = setup();
    await userEvent.click(within(form()).getByRole("button", { name: "Load sample CSV" }));
    await userEvent.selectOptions(within(form()).getByLabelText(/^Pace/), "Very slow");
    await userEvent.click(start());
    expect(store.getState().form).toMatchObject({ paceMs: 3_000, occasion: "Year-end thank you" });
    expect(session.runTool).toHaveBeenCalledWith(
      TOOL.startBulk,
      // the sample's budgets are in dollars, whatever the host's locale
      { occasion: "Year-end thank you", budgetPerPerson: 60, currency: "USD", csv: store.getState().form.typed },
      3_000,
    );
  });

  it("says that a file remembered by its name must be chosen again, and will not start without it", async () => {
    const { store } = setup();
    act(() => store.getState().setForm({ typed: "name,interests\nA,tea" }));
    act(() => store.getState().setForm({ file: { name: "big.csv", bytes: 3e6, rows: 9, as: "csv", text: null } }));
    expect(await screen.findByText(/choose it again/)).toBeTruthy();
    expect(start()).toHaveProperty("disabled", true);
    act(() =>
      store.getState().setForm({ file: { name: "staff.xlsx", bytes: 10, rows: null, as: "file", text: null } }),
    );
    expect(await screen.findByText(/attach it again/)).toBeTruthy();
    await userEvent.click(within(screen.getByLabelText("Attached file")).getByRole("button", { name: "Remove" }));
    expect(start()).toHaveProperty("disabled", false);
  });
});

describe("the recent jobs", () => {
  it("list each with where it ran, and open one again", async () => {
    const { store, session } = setup();
    expect(screen.queryByRole("region", { name: "Recent jobs" })).toBeNull();
    const job = {
      jobId: "job_abc",
      occasion: "Farewell",
      rows: 25,
      hostKind: "mcp-apps",
      protocol: "2026-07-28",
      paceMs: 500,
      input: null,
    } as const;
    act(() => store.getState().addRecentJob(job));
    const list = await screen.findByRole("region", { name: "Recent jobs" });
    expect(list.textContent).toContain("Farewell");
    expect(list.textContent).toContain("25 rows");
    expect(list.textContent).toContain("MCP Apps · 2026-07-28 · pace 500 ms");
    await userEvent.click(within(list).getByRole("button", { name: "Open job_abc" }));
    expect(session.reopenJob).toHaveBeenCalledWith(expect.objectContaining({ jobId: "job_abc" }));
  });
});
