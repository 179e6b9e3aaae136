/**
 * Rebuilds a JSON value the body worker (json-worker.ts) sent in slices, the loop turning between
 * them (a million strings in one message hold it ~0.2 s). A slice is a depth-first walk: `shape`
 * holds 0 for a primitive (the next of `values`), 1 and a count for an array, 2 and a count for an
 * object (each member's key the next of `values`). Why ours: no platform API does this.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

export type Slice = { shape: Int32Array; values: unknown[] };
type Container = unknown[] | Record<string, unknown>;

/** It crossed a thread: its shape is checked. */
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

/** Takes each of `count` slices with `next`, on a turn of its own. */
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
