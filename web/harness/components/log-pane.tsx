/**
 * The right pane: the JSON-RPC log. Every request, reply and notification in order, filtered by
 * method, following the newest entry unless the reader scrolled up.
 */
import { useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from "react";
import { filterEntries } from "../log/rpc-log.js";
import { useHarness, type HarnessStore } from "../store.js";
import { LogRow } from "./log-row.js";

/** Rows drawn at most; the log itself keeps more. */
const SHOWN = 400;

export function LogPane({ store }: { store: HarnessStore }) {
  const entries = useHarness(store, (s) => s.log.entries);
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(entries);
  const matching = useMemo(() => filterEntries(deferred, query), [deferred, query]);
  // Kept while the entries are the same, so the scroll below runs (and lays the page out) only when they change.
  const shown = useMemo(() => matching.slice(-SHOWN), [matching]);
  const methods = useMemo(() => [...new Set(deferred.map((e) => e.method))].sort(), [deferred]);
  const counts = useMemo(
    () => ({
      errors: deferred.filter((e) => e.kind === "error").length,
      toolErrors: deferred.filter((e) => e.toolError).length,
    }),
    [deferred],
  );

  const list = useRef<HTMLOListElement>(null);
  const follow = useRef(true);
  useLayoutEffect(() => {
    const el = list.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [shown]);

  return (
    <section className="pane log" aria-label="JSON-RPC log">
      <div className="log-head">
        <h2>JSON-RPC</h2>
        <span className="muted">
          {matching.length} of {entries.length}
        </span>
        {counts.errors > 0 && (
          <span className="pill error">
            {counts.errors} error{counts.errors > 1 ? "s" : ""}
          </span>
        )}
        {counts.toolErrors > 0 && <span className="pill warn">{counts.toolErrors} isError</span>}
        <button type="button" className="link push" onClick={() => store.getState().clearLog()}>
          Clear
        </button>
      </div>
      <div className="log-filter">
        <input
          type="search"
          placeholder="Filter by method, e.g. tools/call get_job_events"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          list="log-methods"
          aria-label="Filter by method"
        />
        <datalist id="log-methods">
          {methods.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </div>
      <ol
        className="log-list"
        ref={list}
        onScroll={(e) => {
          const el = e.currentTarget;
          follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {matching.length > SHOWN && <li className="log-more">{matching.length - SHOWN} earlier entries not shown</li>}
        {shown.map((e) => (
          <LogRow key={e.n} entry={e} />
        ))}
      </ol>
    </section>
  );
}
