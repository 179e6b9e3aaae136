/**
 * The one logger of every process (the server, the worker): pino, JSON lines in production and
 * readable lines in development (pino-pretty, a development dependency, loaded by name only then).
 * Each line carries its level, the process's role and, while a request is served, the request's
 * facts (request-context.ts). Lines at warn and above go to stderr, the rest to stdout.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { pino, type Logger } from "pino";
import { currentRequest } from "./request-context.js";

export type { Logger } from "pino";

/** Which process writes: `server` (HTTP and maybe jobs) or `worker` (jobs only). */
type Role = "server" | "worker";

export type LoggerOptions = {
  role: Role;
  /** pino's level names, `silent` for none (default `info`). */
  level?: string;
  /** `json` (default) or `pretty`, which falls back to JSON where pino-pretty is not installed. */
  format?: "json" | "pretty";
  /** Where the lines go instead of stdout and stderr (tests). */
  destination?: NodeJS.WritableStream;
};

/** stdout takes lines below warn, stderr warn and above (pino's `dedupe`). */
const splitStreams = () =>
  pino.multistream(
    [
      { level: "trace", stream: pino.destination({ dest: 1, sync: true }) },
      { level: "warn", stream: pino.destination({ dest: 2, sync: true }) },
    ],
    { dedupe: true },
  );

function prettyInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("pino-pretty");
    return true;
  } catch {
    return false;
  }
}

/** pino-pretty in its own thread, named as a string so that production code never imports it. */
function prettyTransport() {
  const options = { singleLine: true, ignore: "pid,hostname", translateTime: "HH:MM:ss.l" };
  return pino.transport({
    targets: [
      { target: "pino-pretty", level: "trace", options: { ...options, destination: 1 } },
      { target: "pino-pretty", level: "warn", options: { ...options, destination: 2 } },
    ],
    dedupe: true,
  });
}

export function createLogger({ role, level = "info", format = "json", destination }: LoggerOptions): Logger {
  const pretty = format === "pretty" && destination === undefined && prettyInstalled();
  const stream = destination ? (destination as pino.DestinationStream) : pretty ? prettyTransport() : splitStreams();
  const logger = pino(
    {
      level,
      base: { role, pid: process.pid },
      // the request being served, if any: its id, MCP method, tool and job
      mixin: () => currentRequest() ?? {},
      // JSON lines name their level ("warn"); pino-pretty's threads need pino's numbers
      ...(pretty ? {} : { formatters: { level: (label: string) => ({ level: label }) } }),
      serializers: { err: errorSummary },
    },
    stream,
  );
  if (format === "pretty" && !pretty && destination === undefined) {
    logger.warn("LOG_FORMAT=pretty needs pino-pretty, a development dependency: logging JSON lines instead");
  }
  return logger;
}

/**
 * A caller's subject as logs name it: a short one-way hash, so that lines of one caller can be told
 * apart and grouped without their identity (an issuer's `sub` may be an email address).
 */
export const subjectHash = (subject: string): string =>
  createHash("sha256").update(subject).digest("base64url").slice(0, 12);

/**
 * An error as a line shows it: its kind, message, code and stack, and its cause's, but none of its
 * other fields, which may hold what was being written (a Redis client's command and arguments).
 */
function errorSummary(error: unknown): unknown {
  if (!(error instanceof Error)) return { message: String(error) };
  return {
    type: error.name,
    message: error.message,
    ...codeOf(error),
    stack: error.stack,
    ...(error.cause === undefined ? {} : { cause: errorSummary(error.cause) }),
  };
}

/** An error's fields for a log line: its code where it has one, and the error itself (pino's `err`). */
export const errorFields = (error: unknown): { err: unknown; code?: string } => ({ err: error, ...codeOf(error) });

function codeOf(error: unknown): { code?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" || typeof code === "number" ? { code: String(code) } : {};
}
