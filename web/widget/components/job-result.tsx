/**
 * A job's result in its layout: cards paged in ("Show more"), the short inline card's summary, or
 * the table; with downloads. While it runs, the people composed so far; once canceled, those shown
 * before stay (the server keeps nothing of them).
 */
import { useEffect, useRef } from "react";
import type { Currency } from "../../../shared/money.js";
import type { PersonResult } from "../../../shared/tools.js";
import { useHost } from "../host-context.js";
import { dotted, useMessages, type Messages } from "../i18n.js";
import { EMPTY_PAGES, followResult, loadNextPage, useResultStore, useResultStoreApi } from "../result-store.js";
import type { ResultPages } from "../result-store.js";
import { ResultTable, type ResultTableProps } from "./result-table.js";
import { Button } from "./button.js";
import { GiftList } from "./gift-list.js";
import { Downloads } from "./downloads.js";
import { FailureText } from "./failure-text.js";
import { SkippedRows } from "./skipped-rows.js";

export type JobResultProps = ResultTableProps & { summary: string | null };

/** Cards paged in (no fullscreen), the short inline card, or the table (fullscreen). */
export type ResultLayout = "cards" | "compact" | "table";

export function JobResult({ layout = "cards", ...props }: JobResultProps & { layout?: ResultLayout }) {
  return layout === "cards" ? <CardsResult {...props} /> : <SummaryResult {...props} table={layout === "table"} />;
}

const summaryOf = (t: Messages, pages: ResultPages, summary: string | null) =>
  pages.figures ? t.resultSummary(pages.figures) : pages.summary || summary;

/**
 * The short inline card (summary, "Open the full result") or, fullscreen, the summary and downloads
 * over the table (which loads its own rows); the finished result's first page gives the figures.
 */
function SummaryResult(props: JobResultProps & { table: boolean }) {
  const { jobId, summary, running = false, composed = 0, stopped = false, currency, table } = props;
  const t = useMessages();
  const host = useHost();
  const store = useResultStoreApi();
  const finished = !running && !stopped;
  useEffect(() => {
    if (finished) followResult(host, store, jobId, false, 0);
  }, [host, store, jobId, finished]);
  // back from fullscreen, the focus the table's controls had goes to the button that opens it again
  const openFull = useRef<HTMLButtonElement>(null);
  const wasTable = useRef(table);
  useEffect(() => {
    if (wasTable.current && !table && document.activeElement === document.body) openFull.current?.focus();
    wasTable.current = table;
  }, [table]);
  const pages = useResultStore((s) => s.pages[jobId]) ?? EMPTY_PAGES;
  const rows = useResultStore((s) => s.tables[jobId]?.rows.length ?? 0);
  const kept = table ? rows : Math.max(rows, pages.people.length);
  if (stopped && kept === 0) return null;
  return (
    <div className="gg-result">
      {(stopped || !running || !table) && (
        <p className="gg-summary">
          {stopped ? t.keptAfterCancel(kept) : running ? t.readyCount(composed) : summaryOf(t, pages, summary)}
        </p>
      )}
      {!table && (
        <Button ref={openFull} onClick={() => void host.requestDisplayMode("fullscreen").catch(() => undefined)}>
          {t.openFull}
        </Button>
      )}
      {!stopped && (table || !running) && (
        <Downloads jobId={jobId} skipped={table && !running && (pages.figures?.skipped ?? 0) > 0} />
      )}
      {table && (
        <ResultTable jobId={jobId} running={running} composed={composed} stopped={stopped} currency={currency} />
      )}
    </div>
  );
}

/** Follows the result as the job goes (the loader ignores repeats) and renders what is loaded. */
function CardsResult({ jobId, summary, running = false, composed = 0, stopped = false, currency }: JobResultProps) {
  const t = useMessages();
  const host = useHost();
  const store = useResultStoreApi();
  const pages = useResultStore((s) => s.pages[jobId]) ?? EMPTY_PAGES;
  useEffect(() => {
    if (!stopped) followResult(host, store, jobId, running, composed);
  }, [host, store, jobId, running, composed, stopped]);

  const loaded = pages.people.length;
  if ((running || stopped) && loaded === 0) return null;
  if (stopped) {
    return (
      <div className="gg-result">
        <p className="gg-summary">{t.keptAfterCancel(loaded)}</p>
        <People people={pages.people} currency={currency} />
      </div>
    );
  }
  return (
    <div className="gg-result">
      <p className="gg-summary">{running ? t.readySoFar : summaryOf(t, pages, summary)}</p>
      <Downloads jobId={jobId} skipped={pages.skipped.length > 0} />
      <SkippedRows rows={pages.skipped} />
      {pages.total !== null && <p className="gg-muted">{t.people(loaded, pages.total)}</p>}
      <People people={pages.people} currency={currency} />
      {pages.error && <FailureText error={pages.error} />}
      {pages.loading && <p className="gg-muted">{t.loading}</p>}
      {!pages.loading && pages.nextOffset !== null && (pages.total !== null || pages.error !== null) && (
        <Button onClick={() => void loadNextPage(host, store, jobId)}>{pages.error ? t.tryAgain : t.showMore}</Button>
      )}
    </div>
  );
}

function People({ people, currency }: { people: PersonResult[]; currency?: Currency }) {
  const t = useMessages();
  return (
    <ul className="gg-people">
      {people.map((p) => (
        <li key={p.row} className="gg-person">
          <h2 className="gg-subtitle">
            {p.name}
            <span className="gg-muted">{dotted(p.department, t.budget(t.price(p.budget, currency)))}</span>
          </h2>
          <GiftList gifts={p.gifts} currency={currency} empty={<p className="gg-muted">{t.noGiftsForPerson}</p>} />
        </li>
      ))}
    </ul>
  );
}
