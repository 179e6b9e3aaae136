/**
 * One log entry: time, direction, method (and tool), id, latency and a mark for protocol errors
 * and `isError` results. Clicking expands it: the standard headers its HTTP request carried and
 * the protocol's own `_meta` keys (the 2026-07-28 envelope) first, then the raw message as
 * pretty-printed text (bounded: a request carrying a CSV of megabytes shows the CSV's start and
 * its length).
 */
import { memo, useState } from "react";
import { clockTime } from "../log/clock.js";
import { envelopeOf } from "../log/envelope.js";
import { previewJson } from "../log/json-preview.js";
import type { LogEntry } from "../log/rpc-log.js";

/** Header names as the specification spells them. */
const HEADER_NAMES: Record<string, string> = {
  "mcp-protocol-version": "MCP-Protocol-Version",
  "mcp-method": "Mcp-Method",
  "mcp-name": "Mcp-Name",
  "mcp-session-id": "Mcp-Session-Id",
};
/** Characters of one envelope value shown. */
const VALUE_CHARS = 300;

const short = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…` : text;
};

/** Name/value lines under a caption; nothing when there are none. */
function Fields({ caption, className, fields }: { caption: string; className: string; fields: [string, string][] }) {
  if (fields.length === 0) return null;
  return (
    <div className={`log-fields ${className}`}>
      <span className="log-fields-caption">{caption}</span>
      <dl aria-label={caption}>
        {fields.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The expanded entry: headers, envelope, then the message. */
function Details({ entry: e }: { entry: LogEntry }) {
  const headers = Object.entries(e.headers ?? {}).map(([k, v]): [string, string] => [HEADER_NAMES[k] ?? k, v]);
  const envelope = Object.entries(envelopeOf(e.message) ?? {}).map(([k, v]): [string, string] => [k, short(v)]);
  return (
    <>
      <Fields caption="Headers" className="log-headers" fields={headers} />
      <Fields caption="_meta envelope" className="log-envelope" fields={envelope} />
      <pre className="json log-json">{previewJson(e.message)}</pre>
    </>
  );
}

const ARROW = { out: "→", in: "←", host: "◆" } as const;
const DIR_TITLE = {
  server: { out: "harness → server", in: "server → harness", host: "host event" },
  view: { out: "host → widget", in: "widget → host", host: "host event" },
} as const;

function badge(e: LogEntry): { text: string; cls: string } | null {
  if (e.kind === "error") return { text: "error", cls: "error" };
  if (e.toolError) return { text: "isError", cls: "warn" };
  if (e.kind === "host") return { text: "host", cls: "host" };
  if (e.peer === "view") return { text: "view", cls: "view" };
  return null;
}

export const LogRow = memo(function LogRow({ entry: e }: { entry: LogEntry }) {
  const [open, setOpen] = useState(false);
  const b = badge(e);
  const reply = e.kind === "result" || e.kind === "error";
  return (
    <li
      className={`log-row ${e.dir} ${e.kind}${e.toolError ? " tool-error" : ""}`}
      data-kind={e.kind}
      data-peer={e.peer}
      data-method={e.method}
    >
      <button type="button" className="log-line" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="log-time">{clockTime(e.at, true)}</span>
        <span className={`log-dir ${e.dir}`} title={DIR_TITLE[e.peer][e.dir]}>
          {ARROW[e.dir]}
        </span>
        <span className="log-method">
          {reply && <span className="log-reply">reply · </span>}
          {e.method}
          {e.tool && <span className="log-tool"> {e.tool}</span>}
        </span>
        {e.id !== null && <span className="log-id">#{String(e.id)}</span>}
        {e.latencyMs !== null && <span className="log-latency">{e.latencyMs} ms</span>}
        {b && <span className={`pill ${b.cls}`}>{b.text}</span>}
      </button>
      {open && <Details entry={e} />}
    </li>
  );
});
