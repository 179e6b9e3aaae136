/**
 * Which character separates the fields of a delimited text: comma, semicolon (Excel where the
 * decimal mark is a comma), tab (TSV, "Unicode text") or pipe. Decided by the header line, with
 * the lines after it as a tie-breaker, counting only characters outside quotes.
 */

export const SEPARATORS = [",", ";", "\t", "|"] as const;
export type Separator = (typeof SEPARATORS)[number];

/** Lines looked at: enough to see a pattern, few enough to cost nothing. */
const SAMPLE_LINES = 20;
/** Characters looked at, at most: a huge first line is not scanned to its end. */
const SAMPLE_CHARS = 64 * 1024;

/**
 * The separator of `text`: the candidate found most often in the first non-blank line (outside
 * quotes), preferring one whose count in that line recurs in the lines after it, since ";" and "|"
 * also separate interests inside a cell. A comma when none is found.
 */
export function detectSeparator(text: string): Separator {
  const lines = sampleLines(text);
  if (lines.length === 0) return ",";
  const [header, ...rest] = lines;
  let best: Separator = ",";
  let bestScore = 0;
  for (const separator of SEPARATORS) {
    const inHeader = header[separator];
    if (inHeader === 0) continue;
    const agreeing = rest.filter((line) => line[separator] === inHeader).length;
    // agreement first, then the count in the header; the order of SEPARATORS breaks a tie
    const score = (rest.length === 0 ? 1 : agreeing / rest.length) * 1_000_000 + inHeader;
    if (score > bestScore) {
      best = separator;
      bestScore = score;
    }
  }
  return best;
}

/** Counts of each candidate outside quotes, per non-blank line (a quoted line break continues the line). */
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
