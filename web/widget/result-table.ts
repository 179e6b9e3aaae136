/**
 * The result table's rows, through `get_job_table` (5,000 people a call), and the views asked of them:
 * linear passes (the sort n log n) over at most the 200,000 rows a job takes.
 */
import * as z from "zod/mini";
import { GetJobTableOutput, TOOL, type TableRow } from "../../shared/tools.js";
import type { Host } from "./host.js";
import { EMPTY_TABLE, type ResultStore, type TableData } from "./result-store.js";

const tableOf = (store: ResultStore, jobId: string): TableData => store.getState().tables[jobId] ?? EMPTY_TABLE;
const setTable = (store: ResultStore, jobId: string, change: Partial<TableData>) =>
  store.setState((s) => ({ tables: { ...s.tables, [jobId]: { ...tableOf(store, jobId), ...change } } }));

/** Loads the rows not loaded yet, once at a time: while the job runs, up to `composed`; once ended, all. */
export async function fillTable(host: Host, store: ResultStore, jobId: string, running: boolean, composed: number) {
  const start = tableOf(store, jobId);
  if (start.loading || start.complete || (running && start.rows.length >= composed)) return;
  setTable(store, jobId, { loading: true, error: null });
  for (;;) {
    const { rows } = tableOf(store, jobId);
    const reply = await host.callTool(TOOL.getJobTable, { jobId, offset: rows.length }, GetJobTableOutput);
    if (!reply.ok) return setTable(store, jobId, { loading: false, error: reply.error });
    const page = reply.value;
    const more = page.nextOffset !== null && page.rows.length > 0;
    setTable(store, jobId, {
      rows: page.offset === rows.length ? rows.concat(page.rows) : rows,
      complete: !page.partial && !more,
      loading: more,
    });
    if (!more) return;
  }
}

/** In the order of a `TableRow`'s cells. */
export const TABLE_COLUMNS = ["row", "name", "department", "budget", "pick", "spend"] as const;
export const TableQuerySchema = z.object({
  search: z.string(),
  department: z.nullable(z.string()),
  sort: z.enum(TABLE_COLUMNS),
  descending: z.boolean(),
});
export type TableQuery = z.infer<typeof TableQuerySchema>;
export const ALL_ROWS: TableQuery = { search: "", department: null, sort: "row", descending: false };

/** An empty cell (no department, nothing within budget) sorts last either way. */
function comparer(column: TableQuery["sort"], descending: boolean, collator: Intl.Collator) {
  const i = TABLE_COLUMNS.indexOf(column);
  const sign = descending ? -1 : 1;
  return (a: TableRow, b: TableRow): number => {
    const [x, y] = [a[i], b[i]];
    if (x === null || y === null) return x === y ? a[0] - b[0] : x === null ? 1 : -1;
    const order = typeof x === "number" ? x - (y as number) : collator.compare(x, y as string);
    return order === 0 ? a[0] - b[0] : sign * order;
  };
}

/** Named like `search` (any case), of its department, in its order. */
export function selectRows(rows: TableRow[], query: TableQuery, locale: string): TableRow[] {
  const needle = query.search.trim().toLocaleLowerCase(locale);
  const { department } = query;
  const filtered =
    needle === "" && department === null
      ? rows
      : rows.filter(
          (r) =>
            (department === null || (r[2] ?? "") === department) &&
            (needle === "" || r[1].toLocaleLowerCase(locale).includes(needle)),
        );
  if (query.sort === "row" && !query.descending) return filtered;
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: "base" });
  return (filtered === rows ? [...rows] : filtered).sort(comparer(query.sort, query.descending, collator));
}

export type DepartmentTotal = { department: string; people: number; budget: number; spend: number };

/** The largest spend (the top picks') first; "" is no department. */
export function departmentTotals(rows: TableRow[]): DepartmentTotal[] {
  const totals = new Map<string, DepartmentTotal>();
  for (const [, , department, budget, , spend] of rows) {
    const key = department ?? "";
    let total = totals.get(key);
    if (total === undefined) totals.set(key, (total = { department: key, people: 0, budget: 0, spend: 0 }));
    total.people++;
    total.budget += budget;
    total.spend += spend ?? 0;
  }
  return [...totals.values()].sort((a, b) => b.spend - a.spend || a.department.localeCompare(b.department));
}
