/** Every bound on one reading of an .xlsx, in one place (docs/reliability.md lists them). */
import { refuse } from "../grid-row.js";

export const READ_LIMITS = {
  /** The parts read (workbook, styles, shared strings, sheets) unpack to at most this many bytes each, counted as they stream. */
  maxUnpackedBytes: 100 * 1024 * 1024,
  /** No part that unpacks past `ratioFromBytes` may be packed tighter than this (XML reaches 20–50). */
  maxRatio: 200,
  ratioFromBytes: 1024 * 1024,
  /** Entries in the directory: a workbook has tens. */
  maxEntries: 10_000,
  /** Shared strings held in memory: a staff list of 200,000 rows and 8 columns has at most 1.6 million, most repeated. */
  maxSharedStrings: 1_000_000,
  /** Characters of all shared strings together (at most 128 MB as JavaScript strings). */
  maxSharedChars: 64 * 1024 * 1024,
  /** Merged ranges whose cells are filled with their first cell's text; past it, merges are ignored. */
  maxMerges: 10_000,
  /** A read (every sheet looked at, the chosen one read) ends by this deadline. */
  deadlineMs: 60_000,
  /** Reads of staff files at once in this process; more wait their turn. */
  readsAtOnce: 2,
  /** Reads one subject may have running or waiting; more are refused. */
  readsPerSubject: 4,
  /** Echoed input (a part's name) is cut to this many characters. */
  maxEchoChars: 200,
};
export type ReadLimits = typeof READ_LIMITS;

/** What to send instead of a workbook too large to read. */
export const SEND_LESS =
  "Keep only the sheet with the staff list (and only its columns) and send it again, or send it as CSV.";

/** The refusal, to throw, of a workbook past a bound. */
export const tooLarge = (message: string) => refuse("input_too_large", message, SEND_LESS);

/** `text` cut to `max` characters, an ellipsis saying it was. */
export const cut = (text: string, max: number = READ_LIMITS.maxEchoChars): string =>
  text.length <= max ? text : `${text.slice(0, max)}…`;
