/**
 * An accept limit below the open-file limit, so a flood of idle connections can neither take the
 * descriptors the server needs (its store, its Redis) nor keep /healthz from answering; and the HTTP
 * server's timeouts (keep-alive past the clients' own, slowloris cut off).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Server } from "node:http";
import type { ServerType } from "@hono/node-server";
import type { Socket } from "node:net";

/** Descriptors kept for the server's own work: this many, or a twentieth of the limit if more. */
const RESERVED_FDS = 128;
/** Connections accepted when the open-file limit cannot be read. */
const FALLBACK_LIMIT = 10_000;

/** The process's open-file limit (soft, as `ulimit -n` says), or undefined when it cannot be told. */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1];
    if (line !== undefined) return line === "unlimited" ? Infinity : Number(line);
  } catch {
    // not Linux: ask the shell, whose limit is this process's
  }
  try {
    const text = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8", timeout: 2_000 }).trim();
    return text === "unlimited" ? Infinity : Number(text) || undefined;
  } catch {
    return undefined;
  }
}

export function connectionLimit(fds: number | undefined): number {
  if (fds === undefined || !Number.isFinite(fds)) return FALLBACK_LIMIT;
  return Math.max(1, fds - Math.max(RESERVED_FDS, Math.ceil(fds / 20)));
}

/**
 * Holds `server` to `max` connections: a connection past it closes the one idle longest, or itself
 * when none is idle. A connection is idle while no request is in flight on it (before its first,
 * between keep-alive requests); an open SSE stream keeps it busy.
 */
export function limitConnections(server: ServerType, max: number): void {
  if (!(server instanceof Server)) return; // HTTP/2 multiplexes: its sessions are not connections per request
  let open = 0;
  // idle connections, the one idle longest first
  const idle = new Set<Socket>();
  const inFlight = new Map<Socket, number>();

  server.on("connection", (socket: Socket) => {
    open++;
    idle.add(socket);
    socket.once("close", () => {
      open--;
      idle.delete(socket);
      inFlight.delete(socket);
    });
    // the newcomer itself when every other connection is busy
    if (open > max) idle.values().next().value?.destroy();
  });

  server.on("request", (req, res) => {
    const socket = req.socket;
    idle.delete(socket);
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once("close", () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      if (left > 0) return void inFlight.set(socket, left);
      inFlight.delete(socket);
      if (!socket.destroyed) idle.add(socket);
    });
  });
}

export function setHttpTimeouts(server: ServerType): void {
  if (!("keepAliveTimeout" in server)) return;
  // past the usual 60 s idle timeout of proxies and clients, so none reuses a socket being closed
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // receiving one whole request may take 2 minutes, not Node's 5; answers (long polls, SSE) are unbounded
  server.requestTimeout = 120_000;
}
