/**
 * Reading values whose shape nobody promised (a host's reply, a postMessage, stored text), shared
 * by the widget and the harness so that "a record" means the same thing everywhere.
 */

/** A plain object: not null, not an array. */
export const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** `text` parsed as JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
