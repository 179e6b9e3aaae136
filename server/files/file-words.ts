/**
 * What a failed file transfer tells people and the operator. Echoed input goes through `echo`
 * (docs/reliability.md); a failure in flight is one sentence, its detail for the operator's log only,
 * without credentials or query string (signed links carry their secret there).
 */
import { clip } from "../input-errors.js";
import { retryable, type Outcome } from "../outcomes.js";

/** The longest piece of input a message repeats: a DNS name's 253 characters fit whole. */
const MAX_ECHO_CHARS = 255;

/** Tells the operator something worth a warning: a line and its fields (never credentials). */
export type Notice = (line: string, detail: Record<string, unknown>) => void;

/** A caller's text as a message may repeat it: cut to `max` characters, saying how long it was. */
export const echo = (text: string, max = MAX_ECHO_CHARS): string => clip(text, Math.min(max, MAX_ECHO_CHARS));

const withoutCredentials = (text: string): string => text.replace(/\/\/[^/?#\s@]*@/g, "//");

function detailOf(error: unknown): string[] {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 4; depth++) {
    if (!(e instanceof Error)) {
      parts.push(typeof e === "string" ? e : `a thrown ${typeof e}`);
      break;
    }
    const code = (e as { code?: unknown }).code;
    parts.push(typeof code === "string" ? `${e.message} (${code})` : e.message);
    e = e.cause;
  }
  return parts.map((p) => withoutCredentials(p).slice(0, 2000));
}

/** The one answer for a download that failed in flight; the cause goes to `notice`. */
export function downloadFailed<T>(url: URL, error: unknown, notice?: Notice): Outcome<T> {
  notice?.("A file could not be downloaded", {
    url: `${url.protocol}//${url.host}${url.pathname.slice(0, 500)}`,
    error: detailOf(error),
  });
  return retryable(
    "internal",
    `The file could not be downloaded from ${echo(url.hostname)}.`,
    "Its link may be wrong or its host unreachable. Try again in a moment, or ask the person to choose the " +
      "file in the widget's file picker.",
  );
}
