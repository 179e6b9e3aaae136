/**
 * The log as a person reads it: one line per call instead of one per message. A request and its
 * reply make one line; a widget's `tools/call` (MCP Apps: widget → host) joins the request the
 * host sent the server for it and both replies, so the line shows the server's round trip and
 * the call's status. Notifications, host notes and replies whose request is gone are lines of
 * their own. A pure view of the entries; no React, no I/O.
 */
import type { LogEntry } from "./rpc-log.js";

/** ok: answered; error: a protocol error (or a reply the widget lost); isError: a tool's domain failure. */
type CallStatus = "pending" | "ok" | "error" | "isError";

export type LogLine = {
  /** The `n` of its first message: stable while the line grows. */
  key: number;
  /** Its messages in arrival order (for a widget's call: widget → host, host → server, and back). */
  parts: LogEntry[];
  method: string;
  tool: string | null;
  /** A call the widget made through the host and the host passed on to the server. */
  viaWidget: boolean;
  /** Milliseconds from the server request to its reply (or, without one, from the request to its reply). */
  roundTripMs: number | null;
  /** How the call ended, or that it waits; null for notifications and host notes. */
  status: CallStatus | null;
};

const isReply = (e: LogEntry) => e.kind === "result" || e.kind === "error";
/** A widget's tool call reaching the host over the MCP Apps bridge. */
const isWidgetCall = (e: LogEntry) =>
  e.peer === "view" && e.dir === "in" && e.kind === "request" && e.method === "tools/call";
/** A tool call the host sends the server. */
const isServerCall = (e: LogEntry) =>
  e.peer === "server" && e.dir === "out" && e.kind === "request" && e.method === "tools/call";

function statusOf(parts: readonly LogEntry[]): CallStatus | null {
  const [head] = parts;
  if (head.kind === "notification" || head.kind === "host") return null;
  const replies = parts.filter(isReply);
  if (replies.some((e) => e.kind === "error")) return "error";
  if (replies.some((e) => e.toolError)) return "isError";
  // a call is answered once the request that opened its line has its reply
  return head.kind !== "request" || replies.some((e) => e.pair === head.n) ? "ok" : "pending";
}

function lineOf(parts: LogEntry[]): LogLine {
  const [head] = parts;
  const server = parts.find((e) => e.peer === "server" && isReply(e));
  const reply = server ?? parts.find(isReply);
  return {
    key: head.n,
    parts,
    method: head.method,
    tool: head.tool,
    viaWidget: head.peer === "view" && parts.some(isServerCall),
    roundTripMs: reply?.latencyMs ?? null,
    status: statusOf(parts),
  };
}

/**
 * Groups `entries` (in log order) into lines, each placed where its first message arrived. A
 * server `tools/call` is taken as the host passing on the oldest widget call of the same tool
 * still unanswered and not yet passed on: the host forwards each as it comes.
 */
export function callLines(entries: readonly LogEntry[]): LogLine[] {
  const groups: LogEntry[][] = [];
  const groupOf = new Map<number, LogEntry[]>();
  const unforwarded: LogEntry[] = [];
  const open = (e: LogEntry) => {
    const group = [e];
    groups.push(group);
    groupOf.set(e.n, group);
    return group;
  };
  for (const e of entries) {
    if (isServerCall(e)) {
      const i = unforwarded.findIndex((w) => w.tool === e.tool && (w.pair === null || w.pair > e.n));
      if (i >= 0) {
        const group = groupOf.get(unforwarded[i].n)!;
        unforwarded.splice(i, 1);
        group.push(e);
        groupOf.set(e.n, group);
        continue;
      }
    }
    const group = isReply(e) && e.pair !== null ? groupOf.get(e.pair) : undefined;
    if (group) group.push(e);
    else open(e);
    if (isWidgetCall(e)) unforwarded.push(e);
  }
  return groups.map(lineOf);
}
