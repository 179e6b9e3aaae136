/**
 * Pretty-printed JSON for reading on screen, bounded: laid out as `JSON.stringify(value, null, 2)`,
 * but a long string shows its start and its length, and the text stops after `total` characters.
 * A tool call carrying a CSV of 5 MB, or a result of 100,000 people, is then a few kilobytes of
 * text to lay out rather than megabytes, which held the page for seconds.
 */
export type PreviewLimits = {
  /** Characters of a string shown before it is cut. */
  string: number;
  /** Characters of text written before the rest is left out. */
  total: number;
};

const DEFAULT_LIMITS: PreviewLimits = { string: 2_000, total: 100_000 };

const skipped = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

export function previewJson(value: unknown, limits: PreviewLimits = DEFAULT_LIMITS): string {
  const out: string[] = [];
  let size = 0;
  let cut = false;
  const emit = (s: string) => {
    out.push(s);
    size += s.length;
  };
  const primitive = (v: unknown): string => {
    if (typeof v === "string") {
      if (v.length <= limits.string) return JSON.stringify(v);
      return JSON.stringify(`${v.slice(0, limits.string)}… (${v.length.toLocaleString("en-US")} characters in all)`);
    }
    if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
    if (typeof v === "boolean" || typeof v === "bigint") return String(v);
    return "null";
  };
  const walk = (v: unknown, pad: string): void => {
    if (size >= limits.total) {
      if (!cut) emit(`… (cut after ${limits.total.toLocaleString("en-US")} characters)`);
      cut = true;
      return;
    }
    if (v === null || typeof v !== "object") return emit(primitive(v));
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return walk(toJSON.call(v), pad);
    const inner = `${pad}  `;
    const array = Array.isArray(v);
    // Arrays are walked by index, so a cut array of a million items costs only what is shown.
    const keys = array ? null : Object.keys(v).filter((k) => !skipped((v as Record<string, unknown>)[k]));
    const count = keys ? keys.length : (v as unknown[]).length;
    const [open, close] = array ? ["[", "]"] : ["{", "}"];
    if (count === 0) return emit(open + close);
    emit(`${open}\n`);
    for (let i = 0; i < count && !cut; i++) {
      if (keys) {
        emit(`${inner}${JSON.stringify(keys[i])}: `);
        walk((v as Record<string, unknown>)[keys[i]], inner);
      } else {
        const x = (v as unknown[])[i];
        emit(inner);
        walk(skipped(x) ? null : x, inner);
      }
      emit(i < count - 1 && !cut ? ",\n" : "\n");
    }
    emit(pad + close);
  };
  walk(value, "");
  return out.join("");
}
