/** The picked items as gifts in the request's language, the reason's clauses chosen by the tags matched. */
import type { Language } from "../../shared/stage-words.js";
import type { Gift } from "../../shared/tools.js";
import type { MatchTables } from "./match-tables.js";
import { byLanguage, moneyText, type Wording } from "./reason.js";
import { DEPARTMENT, NEAR, STATED, type TagWeights } from "./tag-weights.js";
import { memoize } from "./text-index.js";

/** What of the request the answer's words depend on. */
type AnswerRequest = { budget: number; department?: string; locale?: Language };

export class GiftAnswers {
  /** A job has a handful of budgets, and Intl is slow per call: each budget's text, made once per language. */
  private readonly budgetTexts = byLanguage((language) =>
    memoize((budget: number) => moneyText(budget, this.tables.currency, language), 10_000),
  );

  constructor(private readonly tables: MatchTables) {}

  /** The gifts for the first `n` of `picked`; `occasion` is the request's occasion id, -1 for none. */
  write(picked: Int32Array, n: number, request: AnswerRequest, tags: TagWeights, occasion: number): Gift[] {
    const { items, prices, priceTexts, occasionMasks } = this.tables;
    const language = request.locale ?? "en";
    const wording = this.tables.wordings[language];
    const texts = priceTexts[language];
    const budgetText = this.budgetTexts[language](request.budget);
    const occasionBit = occasion < 0 ? 0 : 1 << occasion;
    const out = new Array<Gift>(n);
    for (let k = 0; k < n; k++) {
      const i = picked[k];
      const suits = (occasionMasks[i] & occasionBit) !== 0 ? wording.occasions[occasion] : "";
      const opening = this.opening(i, request.department, tags, wording);
      const reason = wording.words.sentence(opening, suits, texts[i], budgetText);
      out[k] = { id: items[i].id, name: wording.names[i], price: prices[i], category: wording.categories[i], reason };
    }
    return out;
  }

  /** The two strongest stated interests matched, else a related one, else the department, else the category. */
  private opening(i: number, department: string | undefined, tags: TagWeights, wording: Wording): string {
    const ids = this.tables.tagIds[i];
    const { weights, kinds, sources } = tags;
    let first = -1;
    let second = -1;
    let near = -1;
    let w1 = 0;
    let w2 = 0;
    let viaDepartment = false;
    for (let k = 0; k < ids.length; k++) {
      const t = ids[k];
      const w = weights[t];
      if (kinds[t] === DEPARTMENT && w > 0) viaDepartment = true;
      if (kinds[t] === NEAR && w > 0 && (near === -1 || w > weights[near])) near = t;
      if (kinds[t] !== STATED || w === 0) continue;
      if (w > w1) {
        second = first;
        w2 = w1;
        first = t;
        w1 = w;
      } else if (w > w2) {
        second = t;
        w2 = w;
      }
    }
    if (first >= 0) {
      return second >= 0 ? wording.pairFirsts[first] + wording.pairSeconds[second] : wording.interests[first];
    }
    if (near >= 0) return wording.related[sources[near]];
    if (viaDepartment && department) return wording.words.department(department);
    return wording.categoryOpenings[i];
  }
}
