// @vitest-environment jsdom
/**
 * The result table's views: search any case (Hangul too), one department, any column sorted
 * either way with empty cells last, each department's totals; 200,000 rows put only the rows
 * in view into the page; and to assistive technology it is a table, its rows counted and
 * numbered in the whole, its headers saying how it is sorted.
 */
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TOOL, type TableRow } from "../../shared/tools.js";
import { ResultTable } from "./components/result-table.js";
import { installFakeHost, type FakeHost } from "../../test-kit/widget/fake-host.js";
import { createHost, HostContext } from "./host-context.js";
import type { Host } from "./host.js";
import { createResultStore, ResultStoreContext } from "./result-store.js";
import { ALL_ROWS, departmentTotals, selectRows } from "./result-table.js";

const ROWS: TableRow[] = [
  [2, "김민준", "영업", 50, "머그", 12],
  [3, "Ada", "R&D", 60, null, null],
  [4, "ada lovelace", null, 40, "Chess set", 39.5],
  [5, "Zoe", "R&D", 50, "Tea", 20],
];
const rowsOf = (rows: TableRow[]) => rows.map((r) => r[0]);

describe("selectRows", () => {
  it("keeps the source order and the same array when nothing is asked", () => {
    expect(selectRows(ROWS, ALL_ROWS, "en")).toBe(ROWS);
  });

  it("searches names in any case, Hangul too, within one department", () => {
    expect(rowsOf(selectRows(ROWS, { ...ALL_ROWS, search: " ADA " }, "en"))).toEqual([3, 4]);
    expect(rowsOf(selectRows(ROWS, { ...ALL_ROWS, search: "민준" }, "ko"))).toEqual([2]);
    expect(rowsOf(selectRows(ROWS, { ...ALL_ROWS, search: "ada", department: "R&D" }, "en"))).toEqual([3]);
    // "" is the people with no department
    expect(rowsOf(selectRows(ROWS, { ...ALL_ROWS, department: "" }, "en"))).toEqual([4]);
  });

  it("sorts by any column either way, an empty cell last both ways", () => {
    const sorted = (sort: "spend" | "pick" | "budget", descending: boolean) =>
      rowsOf(selectRows(ROWS, { ...ALL_ROWS, sort, descending }, "en"));
    expect(sorted("spend", true)).toEqual([4, 5, 2, 3]);
    expect(sorted("spend", false)).toEqual([2, 5, 4, 3]);
    expect(sorted("pick", false)).toEqual([4, 5, 2, 3]);
    // equal budgets keep the source order
    expect(sorted("budget", true)).toEqual([3, 2, 5, 4]);
    expect(ROWS.map((r) => r[0])).toEqual([2, 3, 4, 5]);
  });
});

describe("departmentTotals", () => {
  it("sums people, budget and spend per department, the largest spend first", () => {
    expect(departmentTotals(ROWS)).toEqual([
      { department: "", people: 1, budget: 40, spend: 39.5 },
      { department: "R&D", people: 2, budget: 110, spend: 20 },
      { department: "영업", people: 1, budget: 50, spend: 12 },
    ]);
  });
});

describe("the table of 200,000 people", () => {
  let fake: FakeHost;
  let host: Host;
  afterEach(() => {
    host.dispose();
    fake.uninstall();
  });

  /** The table of `rows` for a finished job, over a fake host in fullscreen. */
  function renderTable(rows: TableRow[]) {
    fake = installFakeHost({ displayMode: "fullscreen" });
    host = createHost();
    const store = createResultStore();
    store.setState({ tables: { "job-1": { rows, complete: true, loading: false, error: null } } });
    render(
      <HostContext.Provider value={host}>
        <ResultStoreContext.Provider value={store}>
          <ResultTable jobId="job-1" running={false} composed={0} />
        </ResultStoreContext.Provider>
      </HostContext.Provider>,
    );
    return screen.getByRole("table", { name: "People and their top picks" });
  }
  const people = (n: number) =>
    Array.from({ length: n }, (_, i): TableRow => [i + 2, `Person ${i + 1}`, `D${i % 40}`, 50 + (i % 7), "Mug", 12]);

  it("puts only the rows in view into the page, and finds a person among them all", async () => {
    const table = renderTable(people(200_000));
    const rows = () => within(table).getAllByRole("row").slice(1);
    expect(screen.getByText("200,000 people")).toBeTruthy();
    expect(rows().length).toBeLessThan(50);
    // the header row and every person, though few are in the page
    expect(table.getAttribute("aria-rowcount")).toBe("200001");
    // the rows are as tall as all of them, so the document scrolls as it would through them all
    expect(within(table).getByRole("rowgroup").style.height).toBe(`${200_000 * 36}px`);
    await userEvent.type(screen.getByRole("searchbox", { name: "Search by name" }), "Person 123456");
    expect(rows().map((row) => row.querySelector(".gg-c-name")?.textContent)).toEqual(["Person 123456"]);
    expect(table.getAttribute("aria-rowcount")).toBe("2");
    expect(rows()[0].getAttribute("aria-rowindex")).toBe("2");
    // every row was in: nothing was asked of the server
    expect(fake.argsOf(TOOL.getJobTable)).toEqual([]);
  });

  it("is a table of rows, column headers and cells, each header saying how it sorts the rows", async () => {
    const table = renderTable(people(3));
    const [head, ...body] = within(table).getAllByRole("row");
    expect(head.getAttribute("aria-rowindex")).toBe("1");
    const headers = within(head).getAllByRole("columnheader");
    expect(headers.map((h) => h.textContent)).toEqual(["Name", "Department", "Budget", "Top pick", "Spend"]);
    const sorts = () => headers.map((h) => h.getAttribute("aria-sort"));
    expect(sorts()).toEqual(["none", "none", "none", "none", "none"]);
    expect(body.map((row) => row.getAttribute("aria-rowindex"))).toEqual(["2", "3", "4"]);
    expect(
      within(body[0])
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["Person 1", "D0", "$50", "Mug", "$12"]);
    // the sort buttons are inside their headers; amounts sort largest first, then turn round
    await userEvent.click(within(headers[2]).getByRole("button", { name: "Budget" }));
    expect(sorts()).toEqual(["none", "none", "descending", "none", "none"]);
    await userEvent.click(within(headers[2]).getByRole("button"));
    expect(sorts()).toEqual(["none", "none", "ascending", "none", "none"]);
    await userEvent.click(within(headers[0]).getByRole("button"));
    expect(sorts()).toEqual(["ascending", "none", "none", "none", "none"]);
    // a search counts only the rows it shows
    await userEvent.type(screen.getByRole("searchbox", { name: "Search by name" }), "Person 3");
    expect(table.getAttribute("aria-rowcount")).toBe("2");
  });
});

describe("the table of a canceled job", () => {
  it("counts the people kept as they are, not as 'so far', and asks the server for no more", () => {
    const fake = installFakeHost({ displayMode: "fullscreen" });
    const host = createHost();
    try {
      const store = createResultStore();
      const rows: TableRow[] = [
        [2, "Ada", "R&D", 50, "Mug", 12],
        [3, "Grace", "Ops", 60, "Kettle", 40],
      ];
      store.setState({ tables: { "job-1": { rows, complete: false, loading: false, error: null } } });
      render(
        <HostContext.Provider value={host}>
          <ResultStoreContext.Provider value={store}>
            <ResultTable jobId="job-1" running={false} composed={2} stopped />
          </ResultStoreContext.Provider>
        </HostContext.Provider>,
      );
      expect(screen.getByText("2 people")).toBeTruthy();
      expect(screen.queryByText(/so far/)).toBeNull();
      expect(fake.argsOf(TOOL.getJobTable)).toEqual([]);
    } finally {
      host.dispose();
      fake.uninstall();
    }
  });
});
