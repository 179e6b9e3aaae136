/**
 * Which character separates the fields of a delimited text: comma, semicolon (Excel where the
 * decimal mark is a comma), tab or pipe, by how regularly each splits the first lines.
 */
import { isColumnName } from "./headers.js";

const SEPARATORS = [",", ";", "\t", "|"] as const;
export type Separator = (typeof SEPARATORS)[number];

const SAMPLE_LINES = 20;
const SAMPLE_CHARS = 64 * 1024;
/** Lines above the header a file may have (a title, a date). */
const HEADER_LINES = 5;

/** The separator that splits one of the first lines into two column names or more, whatever the rows use. */
function headerSeparator(text: string): Separator | undefined {
  for (const line of text.slice(0, SAMPLE_CHARS).split(/\r?\n|\r/, HEADER_LINES))
    for (const separator of SEPARATORS) {
      const named = line.split(separator).filter((cell) => isColumnName(cell.replace(/^\s*"|"\s*$/g, "")));
      if (named.length >= 2) return separator;
    }
  return undefined;
}

/**
 * The header's separator; without one, the candidate that splits the most sampled lines into the
 * same number of fields, then into more, then the order above; a comma when no line has any.
 */
export function detectSeparator(text: string): Separator {
  const named = headerSeparator(text);
  if (named !== undefined) return named;
  const lines = sampleLines(text);
  let best: { separator: Separator; score: number } = { separator: ",", score: 0 };
  for (const separator of SEPARATORS) {
    const counts = lines.map((line) => line[separator]);
    const mode = mostCommon(counts.filter((n) => n > 0));
    const agreeing = counts.filter((n) => n === mode).length;
    const score = agreeing * 1_000_000 + Math.min(mode, 999_999);
    if (mode > 0 && score > best.score) best = { separator, score };
  }
  return best.separator;
}

/** The most frequent of `counts` (the larger on a tie), 0 for none. */
function mostCommon(counts: number[]): number {
  const seen = new Map<number, number>();
  for (const n of counts) seen.set(n, (seen.get(n) ?? 0) + 1);
  return [...seen].reduce((a, b) => (b[1] > a[1] || (b[1] === a[1] && b[0] > a[0]) ? b : a), [0, 0])[0];
}

/** Counts of each candidate outside quotes, per non-blank line. */
function sampleLines(text: string): Record<Separator, number>[] {
  const lines: Record<Separator, number>[] = [];
  const end = Math.min(text.length, SAMPLE_CHARS);
  let counts = fresh();
  let blank = true;
  let quoted = false;
  for (let i = 0; i < end && lines.length < SAMPLE_LINES; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === "\n" || c === "\r") {
      if (!blank) lines.push(counts);
      counts = fresh();
      blank = true;
      continue;
    } else if (c === "," || c === ";" || c === "\t" || c === "|") counts[c]++;
    if (c !== " " && c !== "\uFEFF") blank = false;
  }
  if (!blank && lines.length < SAMPLE_LINES && end === text.length) lines.push(counts);
  return lines;
}

const fresh = (): Record<Separator, number> => ({ ",": 0, ";": 0, "\t": 0, "|": 0 });
