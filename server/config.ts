/**
 * Every environment variable the server and the worker read (docs/operations.md, held to this
 * schema by config.test.ts), parsed once into one frozen object. Empty counts as unset; a value that
 * cannot work is refused in one line naming the variable and what it takes.
 */
import * as z from "zod/mini";
import { BULLMQ_DEFAULTS } from "./jobs/executor-bullmq.js";
import { DEFAULT_LIMITS, SESSION_DEFAULTS } from "./limits.js";
import { isLoopback, parseDownloadHosts, parseHosts, parseOrigins } from "./origin.js";

type Env = Record<string, string | undefined>;

const HOUR_MS = 60 * 60 * 1000;
const MB = 1024 * 1024;
const STORES = ["sqlite", "memory", "redis"] as const;
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const LOG_FORMATS = ["json", "pretty"] as const;
const MIN_SECRET_CHARS = 32;
const DEFAULT_SCOPES = ["gifts"];
/** Variables whose value a refusal must not print. */
const SECRETS = new Set(["FILE_LINK_SECRET"]);

/** One variable: unset or empty gives `fallback`; text `read` turns down is refused with `takes`. */
function variable<T, F extends T | undefined = undefined>(
  takes: string,
  read: (text: string) => T | undefined,
  fallback?: F,
) {
  return z.pipe(
    z.optional(z.string()),
    z.transform<string | undefined, T | F>((raw, ctx) => {
      if (raw === undefined || raw === "") return fallback as F;
      const value = read(raw);
      if (value !== undefined) return value;
      ctx.issues.push({ code: "custom", message: takes, input: raw });
      return z.NEVER;
    }),
  );
}

/** A number that `ok` takes; one with a default is never undefined. */
const numberOf =
  (takes: string, ok: (n: number) => boolean) =>
  <F extends number | undefined = undefined>(fallback?: F) =>
    variable<number, F>(takes, (t) => (ok(Number(t)) ? Number(t) : undefined), fallback);
const port = numberOf("a port: a whole number from 0 to 65535", (n) => Number.isInteger(n) && n >= 0 && n <= 65_535);
const count = numberOf("a whole number of 0 or more", (n) => Number.isInteger(n) && n >= 0);
const atLeastOne = numberOf("a whole number of at least 1", (n) => Number.isInteger(n) && n >= 1);
const positive = numberOf("a positive number", (n) => n > 0);
const plain = <F extends string | undefined = undefined>(fallback?: F) =>
  variable<string, F>("text", (t) => t, fallback);
/** A URL, trimmed: exactly as written otherwise (an issuer must match its metadata to the character). */
const url = () => variable("a URL", (t) => (URL.canParse(t.trim()) ? t.trim() : undefined));
/** A base URL, without the trailing slashes it may be written with. */
const baseUrl = () => variable("a URL", (t) => (URL.canParse(t.trim()) ? t.trim().replace(/\/+$/, "") : undefined));
const onOff = () => variable("1 (on) or 0 (off)", (t) => (t === "1" ? true : t === "0" ? false : undefined), false);
const scopeList = (t: string) => {
  const named = t.split(/[\s,]+/).filter(Boolean);
  return named.length > 0 ? named : DEFAULT_SCOPES;
};

export const EnvSchema = z.object({
  PORT: port(8787),
  HOST: plain("127.0.0.1"),
  DATA_DIR: plain("./data"),
  STORE: variable("a store: use sqlite (the default), memory or redis", (t) => STORES.find((s) => s === t), "sqlite"),
  REDIS_URL: variable(
    "a redis:// or rediss:// URL",
    (t) => (URL.canParse(t) && ["redis:", "rediss:"].includes(new URL(t).protocol) ? t : undefined),
    "redis://127.0.0.1:6379",
  ),
  REDIS_PREFIX: plain("giftgenius:"),
  WORKERS: count(DEFAULT_LIMITS.maxConcurrentJobs),
  JOB_LOCK_MS: count(BULLMQ_DEFAULTS.lockMs),
  JOB_STALLED_CHECK_MS: count(BULLMQ_DEFAULTS.stalledCheckMs),
  JOB_GRACE_MS: count(BULLMQ_DEFAULTS.graceMs),
  RETENTION_HOURS: positive(DEFAULT_LIMITS.retentionMs / HOUR_MS),
  QUOTA_UNFINISHED_JOBS: positive(DEFAULT_LIMITS.maxUnfinishedPerSubject),
  QUOTA_JOBS_PER_HOUR: positive(DEFAULT_LIMITS.maxStartsPerHour),
  QUOTA_STORED_MB: positive(DEFAULT_LIMITS.maxStoredBytesPerSubject / MB),
  AUTH_ISSUER: url(),
  PUBLIC_URL: baseUrl(),
  AUTH_SCOPES: variable("a list of scopes", scopeList, DEFAULT_SCOPES),
  ALLOWED_ORIGINS: variable("a list of origins", parseOrigins, []),
  ALLOWED_HOSTS: variable("a list of host names", parseHosts, []),
  MAX_SESSIONS: atLeastOne(SESSION_DEFAULTS.maxSessions),
  SESSION_MIN_IDLE_SECONDS: atLeastOne(SESSION_DEFAULTS.minIdleMs / 1000),
  MAX_SESSIONS_PER_SUBJECT: atLeastOne(),
  MAX_CONNECTIONS: atLeastOne(),
  INSTANCE_ID: variable("an instance tag: 1 to 32 letters, digits, - or _", (t) =>
    /^[A-Za-z0-9_-]{1,32}$/.test(t) ? t : undefined,
  ),
  WIDGET_DOMAIN: plain(),
  FILE_LINK_SECRET: variable(
    `long enough to sign download links: it needs at least ${MIN_SECRET_CHARS} characters (e.g. the output of \`openssl rand -base64 32\`)`,
    (t) => (t.length >= MIN_SECRET_CHARS ? t : undefined),
  ),
  FILE_DOWNLOAD_HOSTS: variable(
    "a list of host names such as files.example.com or *.example.com, or origins such as " +
      "https://files.example.com:8443 (http only on loopback), separated by commas",
    parseDownloadHosts,
    [],
  ),
  GIFTGENIUS_DEV: onOff(),
  SERVE_HARNESS: onOff(),
  LOG_LEVEL: variable(`a log level: ${LOG_LEVELS.join(", ")}`, (t) => LOG_LEVELS.find((l) => l === t), "info"),
  LOG_FORMAT: variable("a log format: json or pretty", (t) => LOG_FORMATS.find((f) => f === t)),
  METRICS_PORT: port(),
  METRICS_HOST: plain("127.0.0.1"),
  DRAIN_SECONDS: numberOf("a number of seconds of 0 or more", (n) => n >= 0)(0),
  OTEL_EXPORTER_OTLP_ENDPOINT: baseUrl(),
});

export type Config = ReturnType<typeof readConfig>;

/** Throws an error whose message is the one line to print when a value cannot work. */
export function readConfig(env: Env = process.env) {
  // every variable present, so that each one's default is given whether or not it is set
  const input = Object.fromEntries(Object.keys(EnvSchema.shape).map((name) => [name, env[name]]));
  const parsed = EnvSchema.safeParse(input);
  if (!parsed.success) throw new Error(refusal(parsed.error.issues[0], env));
  const v = parsed.data;
  if (v.AUTH_ISSUER !== undefined && v.PUBLIC_URL === undefined) {
    throw new Error("AUTH_ISSUER is set but PUBLIC_URL is not: set PUBLIC_URL to this server's public base URL.");
  }
  const named = [...v.ALLOWED_HOSTS, ...(v.PUBLIC_URL ? [new URL(v.PUBLIC_URL).hostname] : [])];
  return deepFreeze({
    port: v.PORT,
    host: v.HOST,
    store: v.STORE,
    dataDir: v.DATA_DIR,
    redis: { url: v.REDIS_URL, keyPrefix: v.REDIS_PREFIX },
    workers: {
      concurrency: v.WORKERS,
      lockMs: v.JOB_LOCK_MS,
      stalledCheckMs: v.JOB_STALLED_CHECK_MS,
      graceMs: v.JOB_GRACE_MS,
    },
    limits: {
      retentionMs: v.RETENTION_HOURS * HOUR_MS,
      maxUnfinishedPerSubject: v.QUOTA_UNFINISHED_JOBS,
      maxStartsPerHour: v.QUOTA_JOBS_PER_HOUR,
      maxStoredBytesPerSubject: v.QUOTA_STORED_MB * MB,
    },
    auth:
      v.AUTH_ISSUER && v.PUBLIC_URL
        ? { issuer: v.AUTH_ISSUER, publicUrl: v.PUBLIC_URL, scopes: v.AUTH_SCOPES }
        : undefined,
    publicUrl: v.PUBLIC_URL,
    allowedOrigins: v.ALLOWED_ORIGINS,
    // host names answered besides loopback ones; "any" when bound wide with none
    allowedHosts: named.length === 0 && !isLoopback(v.HOST) ? ("any" as const) : named,
    sessions: {
      max: v.MAX_SESSIONS,
      minIdleMs: v.SESSION_MIN_IDLE_SECONDS * 1000,
      maxPerSubject: v.MAX_SESSIONS_PER_SUBJECT,
    },
    // undefined: below the open-file limit (accept-limit.ts)
    maxConnections: v.MAX_CONNECTIONS,
    instanceId: v.INSTANCE_ID,
    widgetDomain: v.WIDGET_DOMAIN,
    fileLinkSecret: v.FILE_LINK_SECRET,
    fileDownloadHosts: v.FILE_DOWNLOAD_HOSTS,
    // jobs may be paced, /dev/files plays a host's file service, the harness is served
    development: v.GIFTGENIUS_DEV,
    serveHarness: v.GIFTGENIUS_DEV || v.SERVE_HARNESS,
    log: { level: v.LOG_LEVEL, format: v.LOG_FORMAT ?? (v.GIFTGENIUS_DEV ? "pretty" : "json") },
    metrics: v.METRICS_PORT === undefined ? undefined : { host: v.METRICS_HOST, port: v.METRICS_PORT },
    drainMs: v.DRAIN_SECONDS * 1000,
    otlpEndpoint: v.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
}

/** Runs `read`; a setting that cannot work ends the process with its one-line reason. */
export function orExit<T>(read: () => T, log: { fatal(message: string): void }): T {
  try {
    return read();
  } catch (error) {
    log.fatal(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

/** "WORKERS=-1 is not a whole number of 0 or more.": the variable, its value (a secret's length), what it takes. */
function refusal(issue: z.core.$ZodIssue, env: Env): string {
  const name = String(issue.path[0]);
  const value = env[name] ?? "";
  const shown = SECRETS.has(name) ? ` (${value.length} characters)` : `=${value}`;
  return `${name}${shown} is not ${issue.message}.`;
}

function deepFreeze<T>(value: T): Readonly<T> {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
