/**
 * Chooses the gifts from the scored items: the best few candidates, then greedy picks of one edition
 * per product, spread over categories. Buffers are reused: this runs once per person in bulk jobs.
 */
import type { CatalogItem } from "./catalog.js";

/** What each earlier pick from the same category takes off a candidate's score. */
const CATEGORY_REPEAT = 1;

export type Picker = {
  /** Indexes of the chosen items, best first; valid up to the count `pick` returned. */
  picked: Int32Array;
  /** Picks up to `count` of the first `n` items by `scores`; returns how many it picked. */
  pick(scores: Float64Array, n: number, count: number): number;
};

export function createPicker(items: readonly CatalogItem[]): Picker {
  const baseOf = ids(items.map((item) => item.name.replace(/ \([^)]*\)$/, "")));
  const categoryOf = ids(items.map((item) => item.category));
  const baseUsed = new Uint8Array(items.length);
  const perCategory = new Int32Array(items.length);
  let ranked = new Int32Array(0);

  const picker: Picker = {
    picked: new Int32Array(0),
    pick(scores, n, count) {
      // a few more candidates than asked, so the diversity rules have room to choose
      const k = count * 3 + 6;
      if (ranked.length < k) ranked = new Int32Array(k);
      if (picker.picked.length < count) picker.picked = new Int32Array(count);
      const picked = picker.picked;
      const m = topIndexes(scores, n, k, ranked);
      let p = 0;
      while (p < count) {
        let best = -1;
        let bestScore = -Infinity;
        for (let r = 0; r < m; r++) {
          const i = ranked[r];
          if (baseUsed[baseOf[i]] !== 0) continue;
          const s = scores[i] - CATEGORY_REPEAT * perCategory[categoryOf[i]];
          if (s > bestScore) {
            best = i;
            bestScore = s;
          }
        }
        if (best === -1) break;
        picked[p++] = best;
        baseUsed[baseOf[best]] = 1;
        perCategory[categoryOf[best]]++;
      }
      for (let q = 0; q < p; q++) {
        baseUsed[baseOf[picked[q]]] = 0;
        perCategory[categoryOf[picked[q]]] = 0;
      }
      return p;
    },
  };
  return picker;
}

/**
 * Writes the indexes of the `k` best scores among the first `n` into `top`, best first, and
 * returns how many; ties go to the pricier item (the higher index), as the scan runs downwards.
 */
function topIndexes(scores: Float64Array, n: number, k: number, top: Int32Array): number {
  let len = 0;
  for (let i = n - 1; i >= 0; i--) {
    const s = scores[i];
    if (len === k && s <= scores[top[k - 1]]) continue;
    // shift the worse entries down one place; when full, the last one falls off
    let at = len === k ? k - 1 : len++;
    while (at > 0 && scores[top[at - 1]] < s) {
      top[at] = top[at - 1];
      at--;
    }
    top[at] = i;
  }
  return len;
}

/** Numbers each distinct value in order of first appearance. */
function ids(values: string[]): Int32Array {
  const seen = new Map<string, number>();
  return Int32Array.from(values, (v) => {
    if (!seen.has(v)) seen.set(v, seen.size);
    return seen.get(v) ?? 0;
  });
}
