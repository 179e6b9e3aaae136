/**
 * The JSON-RPC log as a pure value: every message in arrival order, each reply paired with its
 * request by `id` (so a reply shows the request's method and the latency), a request to the server
 * with the standard MCP headers its HTTP request carried, and host-side notes (follow-ups,
 * injected faults) interleaved where they happened. No React, no I/O.
 */
import { isRecord } from "../../json-values.js";

/** `out`: harness → peer; `in`: peer → harness; `host`: something the host itself did. */
type Direction = "out" | "in" | "host";
/** Who is on the other end: the MCP server, or the widget (the MCP Apps `ui/*` bridge). */
export type Peer = "server" | "view";
type EntryKind = "request" | "notification" | "result" | "error" | "host";

export type LogEntry = {
  /** Position in the whole log, from 1; never reused, even when old entries are trimmed. */
  n: number;
  /** Epoch milliseconds when the message passed the transport. */
  at: number;
  dir: Direction;
  peer: Peer;
  kind: EntryKind;
  id: string | number | null;
  /** The message's method; for a reply, the method of the request it answers ("?" when unknown). */
  method: string;
  /** The tool name of a `tools/call` request, carried onto its reply. */
  tool: string | null;
  /** On a reply: milliseconds since its request. */
  latencyMs: number | null;
  /** On a reply: the `n` of its request. On a request: the `n` of its reply, once it came. */
  pair: number | null;
  /** A `tools/call` result with `isError: true`: a domain failure, not a protocol error. */
  toolError: boolean;
  /** On a request to the server: the standard headers (`MCP-Protocol-Version`, `Mcp-Method`, …) it went out with. */
  headers: Record<string, string> | null;
  /** The raw message (for host entries: what the host recorded). */
  message: unknown;
};

type PendingRequest = { n: number; at: number; method: string; tool: string | null };

export type RpcLog = {
  entries: LogEntry[];
  /** Requests still waiting for a reply, keyed by `${peer}:${dir}:${id}`; kept apart from the entries so a
   * reply still pairs after its request was trimmed or the view was cleared. */
  pending: Record<string, PendingRequest>;
  next: number;
};

/** Entries kept; older ones are trimmed so a long session stays responsive. */
export const MAX_ENTRIES = 3000;

export function createRpcLog(): RpcLog {
  return { entries: [], pending: {}, next: 1 };
}

/** Drops the entries but keeps numbering and the requests still in flight, so their replies pair. */
export function clearEntries(log: RpcLog): RpcLog {
  return { entries: [], pending: log.pending, next: log.next };
}

const isId = (v: unknown): v is string | number => typeof v === "string" || typeof v === "number";

/** Appends one JSON-RPC message that crossed the transport in direction `dir`. */
export function appendMessage(
  log: RpcLog,
  dir: "out" | "in",
  message: unknown,
  at: number,
  peer: Peer = "server",
): RpcLog {
  const m = isRecord(message) ? message : {};
  const id = isId(m.id) ? m.id : null;
  const base = {
    n: log.next,
    at,
    dir,
    peer,
    id,
    tool: null,
    latencyMs: null,
    pair: null,
    toolError: false,
    headers: null,
    message,
  };
  if (typeof m.method === "string") {
    const tool =
      m.method === "tools/call" && isRecord(m.params) && typeof m.params.name === "string" ? m.params.name : null;
    const entry: LogEntry = { ...base, kind: id === null ? "notification" : "request", method: m.method, tool };
    const pending =
      id === null
        ? log.pending
        : { ...log.pending, [`${peer}:${dir}:${id}`]: { n: entry.n, at, method: m.method, tool } };
    return push(log, entry, pending);
  }
  // A reply answers a request that travelled the other way.
  const key = `${peer}:${dir === "in" ? "out" : "in"}:${id}`;
  const req = id === null ? undefined : log.pending[key];
  const entry: LogEntry = {
    ...base,
    kind: "error" in m ? "error" : "result",
    method: req?.method ?? "?",
    tool: req?.tool ?? null,
    latencyMs: req ? Math.max(0, at - req.at) : null,
    pair: req?.n ?? null,
    toolError: isRecord(m.result) && m.result.isError === true,
  };
  let pending = log.pending;
  let entries = log.entries;
  if (req) {
    pending = { ...log.pending };
    delete pending[key];
    const kept = entryAt(log, req.n);
    if (kept) {
      entries = entries.slice();
      entries[req.n - entries[0].n] = { ...kept, pair: entry.n };
    }
  }
  return push({ ...log, entries }, entry, pending);
}

/** Appends something the host did (a follow-up message, an injected fault) between the messages. */
export function appendHostNote(log: RpcLog, method: string, detail: unknown, at: number): RpcLog {
  const entry: LogEntry = {
    n: log.next,
    at,
    dir: "host",
    peer: "server",
    kind: "host",
    id: null,
    method,
    tool: null,
    latencyMs: null,
    pair: null,
    toolError: false,
    headers: null,
    message: detail,
  };
  return push(log, entry, log.pending);
}

/** Notes the headers the request `id` to the server went out with, while it waits for its reply. */
export function attachHeaders(log: RpcLog, id: string | number, headers: Record<string, string>): RpcLog {
  const req = log.pending[`server:out:${id}`];
  const kept = req && entryAt(log, req.n);
  if (!kept) return log;
  const entries = log.entries.slice();
  entries[kept.n - entries[0].n] = { ...kept, headers };
  return { ...log, entries };
}

/** The entry numbered `n`, if it is still kept. */
export function entryAt(log: RpcLog, n: number): LogEntry | undefined {
  const first = log.entries[0]?.n;
  return first === undefined ? undefined : log.entries[n - first];
}

/**
 * Entries (or log lines) whose method (or tool name) contains `query`, case-insensitively, and,
 * when `method` is given, whose method is that one; all when both are blank.
 * `tools/call get_job_events` matches both words, so either narrows to those calls.
 */
export function filterEntries<T extends Pick<LogEntry, "method" | "tool">>(
  entries: readonly T[],
  query: string,
  method = "",
): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter((e) => {
    if (method && e.method !== method) return false;
    const hay = `${e.method} ${e.tool ?? ""}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

function push(log: RpcLog, entry: LogEntry, pending: Record<string, PendingRequest>): RpcLog {
  const entries =
    log.entries.length >= MAX_ENTRIES ? log.entries.slice(log.entries.length - MAX_ENTRIES + 1) : log.entries.slice();
  entries.push(entry);
  return { entries, pending, next: entry.n + 1 };
}
