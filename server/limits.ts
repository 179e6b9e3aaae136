/**
 * The limits a job system enforces, and the refusals for an input past one, worded once for every
 * form the input takes. They bound every dimension, so no input can make one step of the work long.
 */
import { count, fail, type Outcome } from "./outcomes.js";

export const DEFAULT_LIMITS = Object.freeze({
  /** Largest CSV accepted, in UTF-8 bytes; an `employees` list is measured as the CSV it would be. */
  maxCsvBytes: 8 * 1024 * 1024,
  maxRows: 200_000,
  /** Most cells in one row of a CSV or a sheet (the header's included). */
  maxCellsPerRow: 1_000,
  /** Most characters in one cell (Excel's own limit): a name, a department, the interests. */
  maxCellChars: 32_767,
  maxInterestsPerPerson: 200,
  /** Jobs running at once; later ones wait as `pending`, first come first served. */
  maxConcurrentJobs: 4,
  /** Long polls waiting at once, over all jobs; past it a poll answers at once (jobs/waiters.ts). */
  maxWaitingPolls: 10_000,
  /** How long a finished job (events and result) is kept after it was created. */
  retentionMs: 24 * 60 * 60 * 1000,
  sweepIntervalMs: 10 * 60 * 1000,
  /** Jobs one subject may have pending or running at once. */
  maxUnfinishedPerSubject: 10,
  /** Jobs one subject may start in an hour (a rolling hour). */
  maxStartsPerHour: 100,
  /** UTF-8 bytes one subject's jobs may keep, inputs and results together. */
  maxStoredBytesPerSubject: 512 * 1024 * 1024,
});

export type JobLimits = { -readonly [K in keyof typeof DEFAULT_LIMITS]: number };

/** Sessions open at once, and how long one must be idle to be closed for a newcomer (MAX_SESSIONS, SESSION_MIN_IDLE_SECONDS). */
export const SESSION_DEFAULTS = { maxSessions: 10_000, minIdleMs: 60_000 } as const;

/**
 * The reader's canonical CSV adds each row's number and why a row is skipped, so it may outgrow the
 * file; the file's own limits bound it first, this stops only a pathological one.
 */
const READ_INPUT_FACTOR = 8;

export const readInputLimits = <T extends InputLimits>(limits: T): T => ({
  ...limits,
  maxCsvBytes: limits.maxCsvBytes * READ_INPUT_FACTOR,
});

/** A byte limit as texts state it: "8 MB", "10.5 MB". */
export const megabytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** "Row 1,234", as the refusals name a row. */
export const rowName = (row: number) => `Row ${count(row)}`;

export function resolveLimits(limits: Partial<JobLimits> = {}): JobLimits {
  return { ...DEFAULT_LIMITS, ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) };
}

export type InputLimits = Pick<
  JobLimits,
  "maxCsvBytes" | "maxRows" | "maxCellsPerRow" | "maxCellChars" | "maxInterestsPerPerson"
>;

const SPLIT = "Split the list into smaller files and start one analysis for each.";

/** `what` names the input ("The CSV", "The file"); `where` the row in it ("Row 12", "Employee 3"). */
export const overLimit = {
  bytes: <T>(what: string, bytes: number, limits: InputLimits): Outcome<T> => {
    const [found, most] = sizePair(bytes, limits.maxCsvBytes);
    return fail("input_too_large", `${what} is ${found}; the limit is ${most}.`, SPLIT);
  },
  /** `rows` undefined: counting stopped past the limit. */
  rows: <T>(what: string, rows: number | undefined, limits: InputLimits): Outcome<T> =>
    fail(
      "too_many_rows",
      `${what} has ${rows === undefined ? "more than " : ""}${count(rows ?? limits.maxRows)} rows; one analysis takes at most ${count(limits.maxRows)}.`,
      `Split it into files of at most ${count(limits.maxRows)} rows and start one analysis for each.`,
    ),
  cells: <T>(where: string, cells: number, limits: InputLimits): Outcome<T> =>
    fail(
      "input_too_large",
      `${where} has ${count(cells)} cells; a row may have at most ${count(limits.maxCellsPerRow)}.`,
      "Keep only the columns the analysis reads (name, department, interests, budget) and send it again.",
    ),
  /** `chars` undefined: reading the cell stopped past the limit. */
  cellChars: <T>(where: string, chars: number | undefined, limits: InputLimits): Outcome<T> =>
    fail(
      "input_too_large",
      `${where} has a cell of ${chars === undefined ? "more than " : ""}${count(chars ?? limits.maxCellChars)} characters; a cell may hold at most ${count(limits.maxCellChars)}.`,
      "Shorten that cell (a stray quote can also run a cell on into the next rows) and send it again.",
    ),
  interests: <T>(where: string, interests: number, limits: InputLimits): Outcome<T> =>
    fail(
      "input_too_large",
      `${where} lists ${count(interests)} interests; one person may have at most ${count(limits.maxInterestsPerPerson)}.`,
      "Keep each person's main interests and send it again.",
    ),
};

/** "1.4 MB" or "12 KB". */
export const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/** A size and its limit ("8.4 MB", "8.0 MB"), to the byte when rounding would show the same figure twice. */
export function sizePair(bytes: number, limit: number, format = size): [found: string, limit: string] {
  const [found, most] = [format(bytes), format(limit)];
  if (found !== most || bytes === limit) return [found, most];
  return [`${count(bytes)} bytes`, `${count(limit)} bytes`];
}
