/** Each item's score in one request, in a reused typed array: the matcher's base, then `addTags`. */
import type { MatchTables } from "./match-tables.js";
import { STATED, type TagWeights } from "./tag-weights.js";

export class ItemScores {
  /** Per item: its score in the current request; valid below that request's cutoff. */
  readonly scores: Float64Array;
  /** Per item: its strongest related or department tag's weight, while `addTags` runs; else 0. */
  private readonly loose: Float64Array;
  /** The items given a `loose` weight, to add and clear. */
  private readonly loosened: Int32Array;

  constructor(private readonly tables: Pick<MatchTables, "items" | "tagItems" | "tagShares">) {
    this.scores = new Float64Array(tables.items.length);
    this.loose = new Float64Array(tables.items.length);
    this.loosened = new Int32Array(tables.items.length);
  }

  /**
   * Stated interests add up over an item's tags (a gift for two beats a gift for one); related and
   * department tags do not stack, so a gift loosely tagged with many cannot pass a stated interest.
   */
  addTags(tags: TagWeights, cutoff: number): void {
    const { scores, loose, loosened } = this;
    const { tagItems, tagShares } = this.tables;
    const { weights, kinds, touched } = tags;
    let n = 0;
    for (let k = 0; k < tags.count; k++) {
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
}
