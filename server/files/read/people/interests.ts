/**
 * A cell of interests split the ways people write lists ("등산, 커피", "등산/커피", "hiking; coffee",
 * one per line), and counted the same way for the per-person limit, by the job and the preview.
 */
import { interestPlaced } from "../../../gifts/text-index.js";

const NONE: never[] = [];

const STRONG = /[;|；｜\r\n]/;
const WEAK = /[,/·、，／ㆍ・]/;
const DIGIT = /[0-9]/;
const LATIN = /[A-Za-z]/;

/**
 * The items of `text`, as written (trimmed, empties dropped, repeats kept). A cell with `;`, `|` or a
 * line break is split on those only: the person chose a list separator ("Food, wine and travel;
 * hiking" is two). Otherwise it is split on `,` `/` `·` `、` `，` `／` `ㆍ` `・`, except inside a word:
 * between digits ("24/7"), a `/` between short Latin abbreviations ("AC/DC"), or where only the two
 * parts joined are an interest the vocabulary knows.
 */
function items(text: string): string[] {
  if (STRONG.test(text)) return text.split(STRONG).filter(hasText).map(clean);
  if (!WEAK.test(text)) return hasText(text) ? [clean(text)] : NONE;
  const out: string[] = [];
  let piece = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (WEAK.test(c) && !inWord(text, i)) {
      out.push(piece, c); // the separator kept for now: a phrase across it may be rejoined
      piece = "";
    } else piece += c;
  }
  out.push(piece);
  return rejoin(out);
}

function inWord(text: string, i: number): boolean {
  const before = text[i - 1] ?? "";
  const after = text[i + 1] ?? "";
  if (DIGIT.test(before) && DIGIT.test(after)) return true;
  if (text[i] !== "/" || !LATIN.test(before) || !LATIN.test(after)) return false;
  const left = /[A-Za-z]+$/.exec(text.slice(Math.max(0, i - 4), i))?.[0] ?? "";
  const right = /^[A-Za-z]+/.exec(text.slice(i + 1, i + 5))?.[0] ?? "";
  return left.length <= 3 && right.length <= 3 && left === left.toUpperCase() && right === right.toUpperCase();
}

/** [piece, separator, piece, …] → the items, pieces joined where only the whole is an interest. */
function rejoin(parts: string[]): string[] {
  const out: string[] = [];
  let current = parts[0];
  for (let k = 1; k < parts.length; k += 2) {
    const next = parts[k + 1];
    const whole = current + parts[k] + next;
    if (hasText(current) && hasText(next) && joinedOnly(current, next, whole)) current = whole;
    else {
      if (hasText(current)) out.push(clean(current));
      current = next;
    }
  }
  if (hasText(current)) out.push(clean(current));
  return out;
}

/** Whether only `whole` names an interest; the parts first, short and memoized. */
const joinedOnly = (a: string, b: string, whole: string) =>
  !interestPlaced(a) && !interestPlaced(b) && interestPlaced(whole);

const hasText = (piece: string) => /[^\s"]/.test(piece);
const clean = (piece: string) => piece.trim();

/** How many interests a cell lists, repeats counted. */
export const countInterests = (text: string): number => items(text).length;

/** "등산, 커피 / 등산" → ["등산", "커피"]: repeats dropped whatever their case (the first spelling wins). */
export function splitInterests(text: string): string[] {
  const all = items(text);
  if (all.length <= 1) return all.length === 0 ? NONE : all;
  const seen = new Set<string>();
  return all.filter((t) => !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
}
