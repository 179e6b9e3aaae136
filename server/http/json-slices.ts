/**
 * Rebuilds, on the main thread, a JSON value the body worker (json-worker.ts) parsed and sent in
 * slices: copying a million strings back in one message holds the event loop for ~0.2 s, so they
 * come a few tens of thousands at a time and the loop turns between slices.
 * A slice is a depth-first walk: `shape` holds 0 for a primitive (the next of `values`), 1 and a
 * count for an array, 2 and a count for an object (each member's key is the next of `values`,
 * before the member). A slice ends only after a whole member, so a key and its value never part.
 *
 * Why ours: no SDK or platform API hands a parsed value across threads faster than structured clone does.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

export type Slice = { shape: Int32Array; values: unknown[] };
type Container = unknown[] | Record<string, unknown>;

/** Whether a message from the worker is a slice (it crossed a thread: its shape is checked). */
export function isSlice(m: unknown): m is Slice {
  return (
    typeof m === "object" &&
    m !== null &&
    "shape" in m &&
    m.shape instanceof Int32Array &&
    "values" in m &&
    Array.isArray(m.values)
  );
}

function put(into: Container, key: string, node: unknown) {
  if (Array.isArray(into)) into.push(node);
  // as JSON.parse does: "__proto__" is a member like any other, not the object's prototype
  else if (key === "__proto__")
    Object.defineProperty(into, key, { value: node, enumerable: true, writable: true, configurable: true });
  else into[key] = node;
}

/** Rebuilds the value from `count` slices, taking each with `next` on a turn of its own. */
export async function rebuild(next: () => Slice, count: number): Promise<unknown> {
  const root: unknown[] = [];
  const open: { into: Container; left: number }[] = [{ into: root, left: 1 }];
  for (let n = 0; n < count; n++) {
    if (n > 0) await nextTurn();
    const { shape, values } = next();
    for (let s = 0, v = 0; s < shape.length;) {
      const top = open[open.length - 1];
      const key = Array.isArray(top.into) ? "" : String(values[v++]);
      const code = shape[s++];
      if (--top.left === 0) open.pop();
      if (code === 0) {
        put(top.into, key, values[v++]);
        continue;
      }
      const node: Container = code === 1 ? [] : {};
      put(top.into, key, node);
      const members = shape[s++];
      if (members > 0) open.push({ into: node, left: members });
    }
  }
  return root[0];
}
