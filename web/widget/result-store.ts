/**
 * A job's result paged in through `get_job_result`: while it runs, the people composed so far, then
 * the finished result, each person once (by row), each page fetched once; beside it the table's rows.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { SkippedRow } from "../../shared/files.js";
import { GetJobResultOutput, TOOL, type PersonResult, type ResultFigures, type TableRow } from "../../shared/tools.js";
import type { Host } from "./host.js";
import { createStoreContext } from "./job-views.js";
import type { ToolFailure } from "./tool-reply.js";

export type ResultPages = {
  summary: string | null;
  /** Null before, or from an older server. */
  figures: ResultFigures | null;
  people: PersonResult[];
  skipped: SkippedRow[];
  total: number | null;
  /** Where the next page starts; null once every person is loaded. */
  nextOffset: number | null;
  loading: boolean;
  error: ToolFailure | null;
  /** True while the pages are those of a running job: more people may come. */
  partial: boolean;
};
/** The rows of the result table (result-table.ts loads and selects them). */
export type TableData = {
  rows: TableRow[];
  /** The job has ended and the last page came. */
  complete: boolean;
  loading: boolean;
  error: ToolFailure | null;
};
export const EMPTY_TABLE: TableData = { rows: [], complete: false, loading: false, error: null };

export type ResultStoreState = { pages: Record<string, ResultPages>; tables: Record<string, TableData> };
export type ResultStore = StoreApi<ResultStoreState>;

/** A job's pages before the first is asked for. */
export const EMPTY_PAGES: ResultPages = {
  summary: null,
  figures: null,
  people: [],
  skipped: [],
  total: null,
  nextOffset: 0,
  loading: false,
  error: null,
  partial: false,
};
const PAGE_SIZE = 20;

export const createResultStore = (): ResultStore => createStore<ResultStoreState>()(() => ({ pages: {}, tables: {} }));

const update = (store: ResultStore, jobId: string, change: Partial<ResultPages>) =>
  store.setState((s) => ({ pages: { ...s.pages, [jobId]: { ...(s.pages[jobId] ?? EMPTY_PAGES), ...change } } }));

/** Does nothing while a page is loading or when all are in. */
export async function loadNextPage(host: Host, store: ResultStore, jobId: string): Promise<void> {
  const current = store.getState().pages[jobId] ?? EMPTY_PAGES;
  if (current.loading || current.nextOffset === null) return;
  update(store, jobId, { loading: true, error: null });
  const args = { jobId, offset: current.nextOffset, limit: PAGE_SIZE };
  const reply = await host.callTool(TOOL.getJobResult, args, GetJobResultOutput);
  if (!reply.ok) return update(store, jobId, { loading: false, error: reply.error });
  const page = reply.value;
  const latest = store.getState().pages[jobId] ?? EMPTY_PAGES;
  const rows = new Set(latest.people.map((p) => p.row));
  const skippedRows = new Set(latest.skipped.map((s) => s.row));
  update(store, jobId, {
    summary: page.summary,
    figures: page.figures ?? latest.figures,
    people: [...latest.people, ...page.people.filter((p) => !rows.has(p.row))],
    skipped: [...latest.skipped, ...page.skipped.filter((s) => !skippedRows.has(s.row))],
    total: page.total,
    nextOffset: page.nextOffset,
    loading: false,
    partial: page.partial,
  });
}

/**
 * Keeps the pages of `jobId` up with the job: while it runs, the first people as they are composed;
 * once completed, the finished result from the start, so nobody is listed twice.
 */
export function followResult(host: Host, store: ResultStore, jobId: string, running: boolean, composed: number): void {
  const current = store.getState().pages[jobId];
  if (current?.loading) return;
  if (running) {
    const shown = current?.people.length ?? 0;
    if (shown >= Math.min(PAGE_SIZE, composed)) return;
    update(store, jobId, { nextOffset: shown, partial: true });
  } else if (current === undefined || current.partial) {
    update(store, jobId, { nextOffset: 0, partial: false });
  } else return;
  void loadNextPage(host, store, jobId);
}

export const [ResultStoreContext, useResultStore, useResultStoreApi] =
  createStoreContext<ResultStoreState>("ResultStore");
