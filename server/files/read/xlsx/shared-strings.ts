/**
 * A workbook's shared strings (the text most writers keep once for the whole workbook and refer
 * to by index from the cells), read as a stream into a list bounded by count and by characters:
 * rich text is all its runs joined, phonetic guides (`<rPh>`, furigana) are left out.
 */
import { count, fail } from "../../../outcomes.js";
import { Refused } from "../refused.js";
import type { WorkbookZip } from "./unzip.js";
import type { ReadLimits } from "./read-limits.js";
import { parseXmlPart, type Clock } from "./xml-part.js";

const SMALLER =
  "Keep only the sheet with the staff list (and only its columns) in a new workbook and send that, or send it as CSV.";

const tooMany = (found: string, limit: number, what: string) =>
  new Refused(
    fail(
      "input_too_large",
      `The workbook holds ${found} ${what} of shared text; a read takes at most ${count(limit)} ${what}.`,
      SMALLER,
    ),
  );

/** The shared strings in part `path` (none without it); throws `Refused` past the limits. */
export async function readSharedStrings(
  zip: WorkbookZip,
  path: string | null,
  limits: ReadLimits,
  clock: Clock,
  pace: () => Promise<void>,
): Promise<string[]> {
  if (path === null) return [];
  const strings: string[] = [];
  let chars = 0;
  let current: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  const handlers = {
    open(name: string, a: Record<string, string>) {
      if (name === "si") current = [];
      else if (name === "t") inText = phonetic === 0 && current !== null;
      else if (name === "rPh") phonetic++;
      else if (name === "sst" && Number(a.uniqueCount) > limits.maxSharedStrings)
        throw tooMany(count(Number(a.uniqueCount)), limits.maxSharedStrings, "strings");
    },
    close(name: string) {
      if (name === "t") inText = false;
      else if (name === "rPh") phonetic--;
      else if (name === "si" && current !== null) {
        if (strings.length >= limits.maxSharedStrings)
          throw tooMany(`more than ${count(limits.maxSharedStrings)}`, limits.maxSharedStrings, "strings");
        strings.push(current.length === 1 ? current[0] : current.join(""));
        current = null;
      }
    },
    text(text: string) {
      if (!inText || current === null) return;
      chars += text.length;
      if (chars > limits.maxSharedChars)
        throw tooMany(`more than ${count(limits.maxSharedChars)}`, limits.maxSharedChars, "characters");
      current.push(text);
    },
  };
  const pieces = parseXmlPart(zip, path, handlers, clock);
  while (!(await pieces.next()).done) await pace();
  return strings;
}
