/**
 * One log line (a call, a notification, a host note): time, direction, method (and tool), id, the
 * round trip to the server and the call's status, with a mark for protocol errors and `isError`
 * results and for a call the widget made. Clicking expands it to each of its messages in order:
 * for the request to the server the standard headers its HTTP request carried and the protocol's
 * own `_meta` keys (the 2026-07-28 envelope), then every message as pretty-printed text (bounded: a
 * request carrying a CSV of megabytes shows the CSV's start and its length).
 */
import { memo, useState } from "react";
import { clockTime } from "../log/clock.js";
import { envelopeOf } from "../log/envelope.js";
import { previewJson } from "../log/json-preview.js";
import type { LogLine } from "../log/call-lines.js";
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

const ARROW = { out: "→", in: "←", host: "◆" } as const;
const DIR_TITLE = {
  server: { out: "harness → server", in: "server → harness", host: "host event" },
  view: { out: "host → widget", in: "widget → host", host: "host event" },
} as const;

/** One message of the line: where it went, then (for the line's main message) its headers and envelope, then itself. */
function Part({ entry: e, main }: { entry: LogEntry; main: boolean }) {
  const headers = Object.entries(e.headers ?? {}).map(([k, v]): [string, string] => [HEADER_NAMES[k] ?? k, v]);
  const envelope = Object.entries(envelopeOf(e.message) ?? {}).map(([k, v]): [string, string] => [k, short(v)]);
  const reply = e.kind === "result" || e.kind === "error";
  return (
    <div className="log-part" data-peer={e.peer} data-kind={e.kind}>
      <span className="log-part-caption">
        {ARROW[e.dir]} {DIR_TITLE[e.peer][e.dir]} · {e.kind}
        {e.id !== null && ` #${String(e.id)}`}
        {reply && e.latencyMs !== null && ` · ${e.latencyMs} ms`}
      </span>
      {main && <Fields caption="Headers" className="log-headers" fields={headers} />}
      <Fields
        caption={main ? "_meta envelope" : `${reply ? "Reply" : "Request"} envelope`}
        className="log-envelope"
        fields={envelope}
      />
      {/* `.log-json` marks the main message only: the one a reader opens the line for */}
      <pre className={`json ${main ? "log-json" : "log-part-json"}`}>{previewJson(e.message)}</pre>
    </div>
  );
}

/** The expanded line: each of its messages in order; the request to the server (or the first) is the main one. */
function Details({ line }: { line: LogLine }) {
  const main = line.parts.find((e) => e.peer === "server" && e.kind === "request") ?? line.parts[0];
  return (
    <>
      {line.parts.map((e) => (
        <Part key={e.n} entry={e} main={e === main} />
      ))}
    </>
  );
}

function badge(line: LogLine): { text: string; cls: string } | null {
  const head = line.parts[0];
  if (line.status === "error") return { text: "error", cls: "error" };
  if (line.status === "isError") return { text: "isError", cls: "warn" };
  if (line.status === "pending") return { text: "pending", cls: "quiet" };
  if (head.kind === "host") return { text: "host", cls: "host" };
  if (line.viaWidget) return { text: "widget", cls: "view" };
  if (head.peer === "view") return { text: "view", cls: "view" };
  return null;
}

/** Same messages, same row: a line is redrawn only when one of its messages changed or joined it. */
const sameLine = (a: { line: LogLine }, b: { line: LogLine }) =>
  a.line.parts.length === b.line.parts.length && a.line.parts.every((e, i) => e === b.line.parts[i]);

export const LogRow = memo(function LogRow({ line }: { line: LogLine }) {
  const [open, setOpen] = useState(false);
  const head = line.parts[0];
  const b = badge(line);
  const loneReply = head.kind === "result" || head.kind === "error";
  const marks = `${line.status === "error" ? " error" : ""}${line.status === "isError" ? " tool-error" : ""}`;
  return (
    <li
      className={`log-row ${head.dir} ${head.kind}${marks}`}
      data-kind={head.kind}
      data-peer={head.peer}
      data-method={line.method}
      data-status={line.status ?? undefined}
    >
      <button type="button" className="log-line" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="log-time">{clockTime(head.at, true)}</span>
        <span
          className={`log-dir ${head.dir}`}
          title={line.viaWidget ? "widget → host → server" : DIR_TITLE[head.peer][head.dir]}
        >
          {ARROW[head.dir]}
        </span>
        <span className="log-method">
          {loneReply && <span className="log-reply">reply · </span>}
          {line.method}
          {line.tool && <span className="log-tool"> {line.tool}</span>}
        </span>
        {head.id !== null && <span className="log-id">#{String(head.id)}</span>}
        {line.roundTripMs !== null && (
          <span className="log-latency" title="Round trip to the server">
            {line.roundTripMs} ms
          </span>
        )}
        {line.status === "ok" && <span className="log-ok">ok</span>}
        {b && <span className={`pill ${b.cls}`}>{b.text}</span>}
      </button>
      {open && <Details line={line} />}
    </li>
  );
}, sameLine);
