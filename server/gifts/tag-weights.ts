/**
 * The interest tags one request points at, how strongly and why, and what they add to each item's
 * score: a tag's weight lives in typed arrays reused from request to request.
 */
/** What of the matcher's tables the weights read: per tag its related tags, the items carrying it and their shares. */
type TagTables = {
  items: readonly unknown[];
  related: number[][];
  tagItems: Int32Array[];
  tagShares: Float64Array[];
};

/** Why a tag counts: a stated interest or the free text named it, it is next to one, the department suggests it. */
export const STATED = 1;
export const NEAR = 2;
export const DEPARTMENT = 3;

export class TagWeights {
  /** Per tag: its weight (0 when the request does not point at it), why, and for NEAR the stated tag. */
  readonly weights: Float64Array;
  readonly kinds: Uint8Array;
  readonly sources: Int32Array;
  /** The tags with a weight, `count` of them, in the order they were first noted. */
  readonly touched: Int32Array;
  count = 0;
  /** Per item: its strongest related or department tag's weight while `addTo` runs, else 0; and those items. */
  private readonly loose: Float64Array;
  private readonly loosened: Int32Array;

  constructor(private readonly tables: TagTables) {
    const tags = tables.related.length;
    this.weights = new Float64Array(tags);
    this.kinds = new Uint8Array(tags);
    this.sources = new Int32Array(tags);
    this.touched = new Int32Array(tags);
    this.loose = new Float64Array(tables.items.length);
    this.loosened = new Int32Array(tables.items.length);
  }

  /** Raises each tag in `ids` to weight `w` for `kind`; a tag keeps its strongest reason. */
  note(ids: readonly number[], w: number, kind: number, source = -1): void {
    for (let k = 0; k < ids.length; k++) {
      const t = ids[k];
      if (this.weights[t] === 0) this.touched[this.count++] = t;
      if (w > this.weights[t]) {
        this.weights[t] = w;
        this.kinds[t] = kind;
        this.sources[t] = source;
      }
    }
  }

  /** Notes the tags next to each tag noted so far, at `share` of its weight. */
  noteRelated(share: number): void {
    const stated = this.count;
    for (let k = 0; k < stated; k++) {
      const t = this.touched[k];
      this.note(this.tables.related[t], this.weights[t] * share, NEAR, t);
    }
  }

  /**
   * Adds the weights to the `scores` of items below `cutoff`. Stated interests add up over an item's tags
   * (a gift for two beats a gift for one); related and department tags do not stack, so a gift loosely
   * tagged with many cannot pass a stated interest.
   */
  addTo(scores: Float64Array, cutoff: number): void {
    const { weights, kinds, touched, loose, loosened } = this;
    const { tagItems, tagShares } = this.tables;
    let n = 0;
    for (let k = 0; k < this.count; k++) {
      const t = touched[k];
      const list = tagItems[t];
      const shares = tagShares[t];
      const w = weights[t];
      if (kinds[t] === STATED) {
        for (let j = 0; j < list.length && list[j] < cutoff; j++) scores[list[j]] += w * shares[j];
        continue;
      }
      for (let j = 0; j < list.length && list[j] < cutoff; j++) {
        const i = list[j];
        if (loose[i] === 0) loosened[n++] = i;
        if (w * shares[j] > loose[i]) loose[i] = w * shares[j];
      }
    }
    for (let k = 0; k < n; k++) {
      const i = loosened[k];
      scores[i] += loose[i];
      loose[i] = 0;
    }
  }

  /** Back to no weights, ready for the next request. */
  clear(): void {
    for (let k = 0; k < this.count; k++) this.weights[this.touched[k]] = 0;
    this.count = 0;
  }
}
