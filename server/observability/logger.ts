/**
 * pino: JSON lines in production, pino-pretty (a development dependency, loaded by name) in
 * development. Each line carries the role and the request's facts (request-context.ts); warn and
 * above go to stderr, the rest to stdout.
 */
import { createHash } from "node:crypto";
import { pino, type Logger } from "pino";
import { currentRequest } from "./request-context.js";
import { codeOf } from "../store-errors.js";

export type { Logger } from "pino";

export type LoggerOptions = {
  role: "server" | "worker";
  /** pino's level names, `silent` for none (default `info`). */
  level?: string;
  /** `pretty` falls back to JSON where pino-pretty is not installed. */
  format?: "json" | "pretty";
  /** Where the lines go instead of stdout and stderr (tests). */
  destination?: NodeJS.WritableStream;
};

/** Below warn to stdout, warn and above to stderr. */
const byLevel = <T>(to: (fd: 1 | 2) => T) => [
  { level: "trace", ...to(1) },
  { level: "warn", ...to(2) },
];

const splitStreams = () =>
  pino.multistream(
    byLevel((fd) => ({ stream: pino.destination({ dest: fd, sync: true }) })),
    { dedupe: true },
  );

/** Named as a string so that production code never imports it; undefined where it is not installed. */
function prettyTransport() {
  const options = { singleLine: true, ignore: "pid,hostname", translateTime: "HH:MM:ss.l" };
  try {
    const targets = byLevel((fd) => ({ target: "pino-pretty", options: { ...options, destination: fd } }));
    return pino.transport({ targets, dedupe: true });
  } catch {
    return undefined; // pino resolves the target here, and throws when it cannot
  }
}

export function createLogger({ role, level = "info", format = "json", destination }: LoggerOptions): Logger {
  const pretty = format === "pretty" && destination === undefined ? prettyTransport() : undefined;
  const stream = destination ? (destination as pino.DestinationStream) : (pretty ?? splitStreams());
  const logger = pino(
    {
      level,
      base: { role, pid: process.pid },
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

/** A caller's subject as logs name it: a short one-way hash (a `sub` may be an email address). */
export const subjectHash = (subject: string): string =>
  createHash("sha256").update(subject).digest("base64url").slice(0, 12);

/** An error's kind, message, code, stack and cause; no other fields, which may hold data (a Redis command's arguments). */
function errorSummary(error: unknown): unknown {
  if (!(error instanceof Error)) return { message: String(error) };
  return {
    type: error.name,
    message: error.message,
    code: codeOf(error),
    stack: error.stack,
    cause: error.cause === undefined ? undefined : errorSummary(error.cause),
  };
}

/** An error's fields for a log line: pino's `err`, and its code where it has one (pino drops an undefined one). */
export const errorFields = (error: unknown): { err: unknown; code?: string } => ({ err: error, code: codeOf(error) });
