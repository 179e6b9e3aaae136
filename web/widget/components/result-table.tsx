/**
 * The result as a table, for fullscreen: a sticky bar (search, department, count, sorting headings),
 * a row per person, each department's spend. Only the rows in view are in the page, so 200,000 people
 * are as quick as 20; to assistive technology it is a table whose rows keep their index in the whole.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { Dispatch, RefObject, SetStateAction } from "react";
import type { Currency } from "../../../shared/money.js";
import { useHost, useHostGlobal } from "../host-context.js";
import { useMessages } from "../i18n.js";
import { EMPTY_TABLE, useResultStore, useResultStoreApi } from "../result-store.js";
import { ALL_ROWS, departmentTotals, fillTable, selectRows, TABLE_COLUMNS } from "../result-table.js";
import type { DepartmentTotal, TableQuery } from "../result-table.js";
import { useViewState } from "../view-state.js";
import { FailureText } from "./failure-text.js";

const COLUMNS = TABLE_COLUMNS.filter((c): c is Exclude<TableQuery["sort"], "row"> => c !== "row");
/** Rows rendered beyond each edge of the window, so a quick scroll shows no blank. */
const OVERSCAN = 8;
/** Up to this many rows are all in the page (cheap, and find-in-page sees them); past it, those in view. */
const ALL_UP_TO = 200;
/** "All departments": a value no department has. */
const ALL = "\u0000all";
const NARROW = "(max-width: 599px)";

const narrowQuery = () => (typeof window.matchMedia === "function" ? window.matchMedia(NARROW) : null);
const onNarrowChange = (change: () => void) => {
  const query = narrowQuery();
  query?.addEventListener("change", change);
  return () => query?.removeEventListener("change", change);
};

/** A phone: rows take two lines. React reads it again once subscribed: a frame may have gone fullscreen meanwhile. */
const useNarrow = (): boolean => useSyncExternalStore(onNarrowChange, () => narrowQuery()?.matches ?? false);

/** The rows the window shows of the element, with some either side. */
function useWindowRange(ref: RefObject<HTMLElement | null>, count: number, rowHeight: number) {
  const [range, setRange] = useState({ from: 0, to: 0 });
  useEffect(() => {
    const element = ref.current;
    const win = element?.ownerDocument.defaultView;
    if (!element || !win) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const top = element.getBoundingClientRect().top;
      const from = Math.max(0, Math.min(count, Math.floor(-top / rowHeight) - OVERSCAN));
      const to = Math.max(from, Math.min(count, Math.ceil((win.innerHeight - top) / rowHeight) + OVERSCAN));
      setRange((r) => (r.from === from && r.to === to ? r : { from, to }));
    };
    const schedule = () => {
      if (frame === 0) frame = win.requestAnimationFrame(measure);
    };
    measure();
    win.addEventListener("scroll", schedule, { passive: true });
    win.addEventListener("resize", schedule);
    return () => {
      win.removeEventListener("scroll", schedule);
      win.removeEventListener("resize", schedule);
      if (frame !== 0) win.cancelAnimationFrame(frame);
    };
  }, [ref, count, rowHeight]);
  return range;
}

export type ResultTableProps = {
  jobId: string;
  running?: boolean;
  /** How many people the running job has composed. */
  composed?: number;
  /** The job was canceled: what was loaded stays, and nothing more is asked for. */
  stopped?: boolean;
  currency?: Currency;
};

type QueryProps = { query: TableQuery; setQuery: Dispatch<SetStateAction<TableQuery>> };

/** Keeps `--gg-bar` on the bar's parent at the bar's height: the headings stick just under the bar. */
function useBarHeight(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = bar.current;
    const Observer = element?.ownerDocument.defaultView?.ResizeObserver;
    if (!element || !Observer) return;
    const observer = new Observer(() =>
      element.parentElement?.style.setProperty("--gg-bar", `${element.offsetHeight}px`),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [bar]);
}

function TableBar({ query, setQuery, totals, count }: QueryProps & { totals: DepartmentTotal[]; count: string }) {
  const t = useMessages();
  const bar = useRef<HTMLDivElement>(null);
  useBarHeight(bar);
  return (
    <div className="gg-table-bar" ref={bar}>
      <input
        type="search"
        className="gg-search"
        placeholder={t.searchName}
        aria-label={t.searchName}
        value={query.search}
        onChange={(e) => setQuery((q) => ({ ...q, search: e.target.value }))}
      />
      <select
        aria-label={t.columns.department}
        value={query.department ?? ALL}
        onChange={(e) => setQuery((q) => ({ ...q, department: e.target.value === ALL ? null : e.target.value }))}
      >
        <option value={ALL}>{t.allDepartments}</option>
        {totals.map((d) => (
          <option key={d.department} value={d.department}>
            {d.department || t.noDepartment}
          </option>
        ))}
      </select>
      <span className="gg-muted gg-count">{count}</span>
    </div>
  );
}

function TableHead({ query, setQuery }: QueryProps) {
  const t = useMessages();
  // a new column sorts amounts largest first and words from A; the same column again turns it round
  const sortBy = (sort: TableQuery["sort"]) =>
    setQuery((q) => ({
      ...q,
      sort,
      descending: q.sort === sort ? !q.descending : sort === "budget" || sort === "spend",
    }));
  return (
    <div role="row" aria-rowindex={1} className="gg-row gg-row-head">
      {/* on a phone the headings are a sort bar over two-line rows, and it says so */}
      <span className="gg-sort-label" aria-hidden="true">
        {t.sortBy}
      </span>
      {COLUMNS.map((column) => {
        const sorted = query.sort === column;
        return (
          <div
            key={column}
            role="columnheader"
            className={`gg-c-${column}`}
            aria-sort={sorted ? (query.descending ? "descending" : "ascending") : "none"}
          >
            <button type="button" className="gg-sort" onClick={() => sortBy(column)}>
              {t.columns[column]}
              <span aria-hidden="true">{sorted ? (query.descending ? " ↓" : " ↑") : ""}</span>
            </button>
          </div>
        );
      })}
    </div>
  );
}

function TableRows({ shown, money }: { shown: ReturnType<typeof selectRows>; money: (n: number) => string }) {
  const t = useMessages();
  const rowHeight = useNarrow() ? 56 : 36;
  const body = useRef<HTMLDivElement>(null);
  const windowed = useWindowRange(body, shown.length, rowHeight);
  const { from, to } = shown.length <= ALL_UP_TO ? { from: 0, to: shown.length } : windowed;
  return (
    <div
      ref={body}
      role="rowgroup"
      className="gg-rows"
      style={{ height: shown.length * rowHeight, paddingTop: from * rowHeight }}
    >
      {shown.slice(from, to).map((r, i) => (
        <div key={r[0]} role="row" className="gg-row" aria-rowindex={from + i + 2} style={{ height: rowHeight }}>
          {[r[1], r[2], money(r[3]), r[4] ?? t.nothingInBudget, r[5] === null ? "" : money(r[5])].map((text, c) => (
            <span key={c} role="cell" className={`gg-c-${COLUMNS[c]}`}>
              {text}
            </span>
          ))}
        </div>
      ))}
    </div>
  );
}

export function ResultTable({ jobId, running = false, composed = 0, stopped = false, currency }: ResultTableProps) {
  const t = useMessages();
  const host = useHost();
  const store = useResultStoreApi();
  const locale = useHostGlobal("locale");
  const table = useResultStore((s) => s.tables[jobId]) ?? EMPTY_TABLE;
  useEffect(() => {
    if (!stopped) void fillTable(host, store, jobId, running, composed);
  }, [host, store, jobId, running, composed, stopped]);

  const [query, setQuery] = useViewState("table", ALL_ROWS);
  const totals = useMemo(() => departmentTotals(table.rows), [table.rows]);
  const shown = useMemo(() => selectRows(table.rows, query, locale), [table.rows, query, locale]);
  const money = (amount: number) => t.price(amount, currency);
  const count = t.peopleShown(shown.length, table.rows.length, !table.complete && !stopped);

  return (
    <section className="gg-table">
      <TableBar query={query} setQuery={setQuery} totals={totals} count={count} />
      {/* the header row counts as a row: the rows are numbered from 2 */}
      <div role="table" aria-label={t.tableLabel} aria-rowcount={shown.length + 1}>
        <TableHead query={query} setQuery={setQuery} />
        <TableRows shown={shown} money={money} />
      </div>
      {table.error && <FailureText error={table.error} />}
      <DepartmentOverview totals={totals} money={money} />
    </section>
  );
}

function DepartmentOverview({ totals, money }: { totals: DepartmentTotal[]; money: (n: number) => string }) {
  const t = useMessages();
  if (totals.length < 2) return null;
  return (
    <details className="gg-departments" open={totals.length <= 8}>
      <summary>{t.byDepartment}</summary>
      <ul>
        {totals.map((d) => (
          <li key={d.department}>
            <span className="gg-department-name">{d.department || t.noDepartment}</span>
            <span className="gg-muted">{t.departmentLine(d.people, money(d.spend), money(d.budget))}</span>
            <span className="gg-bar gg-spend" aria-hidden="true">
              <span
                className="gg-bar-fill"
                style={{ width: `${d.budget > 0 ? Math.min(100, (100 * d.spend) / d.budget) : 0}%` }}
              />
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
