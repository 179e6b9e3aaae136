/**
 * The right pane: the JSON-RPC log, one line per call (its request, its reply and, for a widget's
 * call, the widget's side of it), per notification and per host note, in order; filtered by text
 * and by method, following the newest line unless the reader scrolled up.
 */
import { useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from "react";
import { callLines } from "../log/call-lines.js";
import { filterEntries } from "../log/rpc-log.js";
import { useHarness, type HarnessStore } from "../store.js";
import { LogRow } from "./log-row.js";

/** Lines drawn at most; the log itself keeps more. */
const SHOWN = 400;

type Line = ReturnType<typeof callLines>[number];

/** The title, how many lines match, how many failed, and Clear. */
function LogHead({ store, lines, matching }: { store: HarnessStore; lines: Line[]; matching: number }) {
  const counts = useMemo(
    () => ({
      errors: lines.filter((l) => l.status === "error").length,
      toolErrors: lines.filter((l) => l.status === "isError").length,
    }),
    [lines],
  );
  return (
    <div className="log-head">
      <h2>JSON-RPC</h2>
      <span className="muted">
        {matching} of {lines.length}
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
  );
}

type FilterProps = {
  methods: string[];
  query: string;
  method: string;
  onQuery(query: string): void;
  onMethod(method: string): void;
};

/** Filters by text (with the methods seen as suggestions) and by one method. */
function LogFilter({ methods, query, method, onQuery, onMethod }: FilterProps) {
  return (
    <div className="log-filter">
      <input
        type="search"
        placeholder="Filter by method, e.g. tools/call get_job_events"
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        list="log-methods"
        aria-label="Filter by method"
      />
      <datalist id="log-methods">
        {methods.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <select value={method} onChange={(e) => onMethod(e.target.value)} aria-label="Method">
        <option value="">All methods</option>
        {methods.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </div>
  );
}

export function LogPane({ store }: { store: HarnessStore }) {
  const entries = useHarness(store, (s) => s.log.entries);
  const [query, setQuery] = useState("");
  const [method, setMethod] = useState("");
  const deferred = useDeferredValue(entries);
  const lines = useMemo(() => callLines(deferred), [deferred]);
  const matching = useMemo(() => filterEntries(lines, query, method), [lines, query, method]);
  // Kept while the lines are the same, so the scroll below runs (and lays the page out) only when they change.
  const shown = useMemo(() => matching.slice(-SHOWN), [matching]);
  const methods = useMemo(
    () => [...new Set([...lines.map((l) => l.method), method])].filter(Boolean).sort(),
    [lines, method],
  );

  const list = useRef<HTMLOListElement>(null);
  const follow = useRef(true);
  useLayoutEffect(() => {
    const el = list.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [shown]);

  return (
    <section className="pane log" aria-label="JSON-RPC log">
      <LogHead store={store} lines={lines} matching={matching.length} />
      <LogFilter methods={methods} query={query} method={method} onQuery={setQuery} onMethod={setMethod} />
      <ol
        className="log-list"
        ref={list}
        onScroll={(e) => {
          const el = e.currentTarget;
          follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {matching.length > SHOWN && <li className="log-more">{matching.length - SHOWN} earlier lines not shown</li>}
        {shown.map((line) => (
          <LogRow key={line.key} line={line} />
        ))}
      </ol>
    </section>
  );
}
