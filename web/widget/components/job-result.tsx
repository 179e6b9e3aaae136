/**
 * A job's result: while it runs, the people composed so far; once completed, the summary, skipped
 * rows (row and reason), then each person with their gifts, paged in through `get_job_result`
 * ("Show more"), a way to go fullscreen, and, in both cases, downloads of the picks as files.
 * Once canceled, the people shown before stay, as they were (the server keeps nothing of them).
 */
import { useEffect } from "react";
import type { PersonResult } from "../../../shared/tools.js";
import { useHost, useHostGlobal } from "../host.js";
import { formatPrice, useMessages } from "../i18n.js";
import { followResult, loadNextPage, useResultStore, useResultStoreApi } from "../result-store.js";
import { GiftList } from "./gift-list.js";
import { Downloads } from "./downloads.js";
import { FailureText } from "./failure-text.js";
import { SkippedRows } from "./skipped-rows.js";

export type JobResultProps = {
  jobId: string;
  summary: string | null;
  /** The job still runs: `composed` people are ready so far. */
  running?: boolean;
  composed?: number;
  /** The job was canceled: what was loaded stays, and nothing more is asked for. */
  stopped?: boolean;
};

/** Follows the result as the job goes (the loader ignores repeats) and renders what is loaded. */
export function JobResult({ jobId, summary, running = false, composed = 0, stopped = false }: JobResultProps) {
  const t = useMessages();
  const host = useHost();
  const store = useResultStoreApi();
  const displayMode = useHostGlobal("displayMode");
  const displayModes = useHostGlobal("displayModes");
  const pages = useResultStore((s) => s.pages[jobId]);
  useEffect(() => {
    if (!stopped) followResult(host, store, jobId, running, composed);
  }, [host, store, jobId, running, composed, stopped]);

  const more = () => void loadNextPage(host, store, jobId);
  const loaded = pages?.people.length ?? 0;
  if ((running || stopped) && loaded === 0) return null;
  if (stopped) {
    return (
      <div className="gg-result">
        <p className="gg-summary">{t.keptAfterCancel(loaded)}</p>
        <People people={pages?.people ?? []} />
      </div>
    );
  }
  return (
    <div className="gg-result">
      {running ? (
        <p className="gg-summary">{t.readySoFar}</p>
      ) : (
        <p className="gg-summary">{pages?.figures ? t.resultSummary(pages.figures) : pages?.summary || summary}</p>
      )}
      {!running && displayMode !== "fullscreen" && displayModes.includes("fullscreen") && (
        <button
          type="button"
          className="gg-button gg-secondary"
          onClick={() => void host.requestDisplayMode("fullscreen").catch(() => undefined)}
        >
          {t.fullscreen}
        </button>
      )}
      <Downloads jobId={jobId} skipped={(pages?.skipped.length ?? 0) > 0} />
      <SkippedRows rows={pages?.skipped ?? []} />
      {pages !== undefined && pages.total !== null && (
        <p className="gg-muted">{t.people(pages.people.length, pages.total)}</p>
      )}
      <People people={pages?.people ?? []} />
      {pages?.error && <FailureText error={pages.error} />}
      {pages?.loading && <p className="gg-muted">{t.loading}</p>}
      {pages !== undefined &&
        !pages.loading &&
        pages.nextOffset !== null &&
        (pages.total !== null || pages.error !== null) && (
          <button type="button" className="gg-button" onClick={more}>
            {pages.error ? t.tryAgain : t.showMore}
          </button>
        )}
    </div>
  );
}

/** Each person with their gifts. */
function People({ people }: { people: PersonResult[] }) {
  const t = useMessages();
  const locale = useHostGlobal("locale");
  return (
    <ul className="gg-people">
      {people.map((p) => (
        <li key={p.row} className="gg-person">
          <h3 className="gg-subtitle">
            {p.name}
            <span className="gg-muted">
              {[p.department, t.budget(formatPrice(p.budget, locale))].filter(Boolean).join(" · ")}
            </span>
          </h3>
          {p.gifts.length === 0 ? <p className="gg-muted">{t.noGiftsForPerson}</p> : <GiftList gifts={p.gifts} />}
        </li>
      ))}
    </ul>
  );
}
