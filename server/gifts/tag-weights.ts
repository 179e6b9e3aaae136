/** The interest tags one request points at, how strongly and why, in typed arrays reused across requests. */

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

  /** `related[t]`: the tags next to tag t. */
  constructor(private readonly related: readonly (readonly number[])[]) {
    this.weights = new Float64Array(related.length);
    this.kinds = new Uint8Array(related.length);
    this.sources = new Int32Array(related.length);
    this.touched = new Int32Array(related.length);
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
      this.note(this.related[t], this.weights[t] * share, NEAR, t);
    }
  }

  /** Back to no weights, ready for the next request. */
  clear(): void {
    for (let k = 0; k < this.count; k++) this.weights[this.touched[k]] = 0;
    this.count = 0;
  }
}
