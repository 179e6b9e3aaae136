/**
 * How good the picks are, in English and in Korean, on the hand-labelled set of
 * test-kit/gift-quality.ts: interest fit, budget, variety within a department, the share of
 * interests the matcher could place, and the twelve suggest_gifts recipients. Also the matcher's
 * speed on the Korean people against the same people in English, measured in the same run.
 */
import { CATALOG, type CatalogItem } from "../server/gifts/catalog.js";
import { matchGifts as shippedMatcher, type MatchGifts } from "../server/gifts/matcher.js";
import { interestPlaced } from "../server/gifts/text-index.js";
import { QUALITY_PEOPLE, QUALITY_RECIPIENTS, type Language } from "../test-kit/gift-quality.js";
import { row, type BenchOptions, type BenchRow } from "./table.js";

/** Gifts per person in a bulk job, and per recipient in suggest_gifts. */
const JOB_PICKS = 3;
const SUGGEST_PICKS = 5;
const LANGUAGES: Language[] = ["en", "ko"];

export type QualityFigures = {
  /** People whose top 3 hold ≥ 2 gifts from their categories, of those the catalog has two such gifts for. */
  fit: { met: number; of: number };
  /** Picks over the person's budget (of all picks), and the top pick's mean share of the budget. */
  overBudget: number;
  budgetUsed: number;
  /** The largest share of a department's people given one gift outside their categories. */
  variety: { share: number; department: string; gift: string };
  /** Interests the matcher placed on some interest tag, of all written. */
  placed: { met: number; of: number };
  /** Recipients whose top 3 of suggest_gifts' five hold ≥ 2 gifts from their categories. */
  recipients: { met: number; of: number };
};

const byId = new Map(CATALOG.map((item) => [item.id, item]));
const itemOf = (id: string): CatalogItem => {
  const item = byId.get(id);
  if (!item) throw new Error(`no catalog item ${id}`);
  return item;
};
const onInterest = (categories: readonly string[]) => (id: string) => categories.includes(itemOf(id).category);
const baseName = (name: string) => name.replace(/ \([^)]*\)$/, "");

/** Whether the catalog holds two different products within `budget` from `categories`. */
function catalogHasTwo(categories: readonly string[], budget: number): boolean {
  const products = new Set(
    CATALOG.filter((i) => i.price <= budget && categories.includes(i.category)).map((i) => baseName(i.name)),
  );
  return products.size >= 2;
}

/** The quality figures of `match` for the people and recipients written in `language`. */
export function measureQuality(language: Language, match: MatchGifts = shippedMatcher): QualityFigures {
  const fit = { met: 0, of: 0 };
  const placed = { met: 0, of: 0 };
  let overBudget = 0;
  let used = 0;
  // department → gift id → people given it outside their categories; department → people
  const offInterest = new Map<string, Map<string, number>>();
  const sizes = new Map<string, number>();
  for (const person of QUALITY_PEOPLE) {
    const { department, occasion, interests } = person.as[language];
    const picks = match({ occasion, budget: person.budget, interests, department, count: JOB_PICKS, locale: language });
    const fits = onInterest(person.categories);
    if (catalogHasTwo(person.categories, person.budget)) {
      fit.of++;
      if (picks.filter((g) => fits(g.id)).length >= 2) fit.met++;
    }
    overBudget += picks.filter((g) => g.price > person.budget).length;
    used += picks.length > 0 ? picks[0].price / person.budget : 0;
    for (const interest of interests) {
      placed.of++;
      if (interestPlaced(interest)) placed.met++;
    }
    sizes.set(department, (sizes.get(department) ?? 0) + 1);
    const gifts = offInterest.get(department) ?? new Map<string, number>();
    offInterest.set(department, gifts);
    for (const g of picks) if (!fits(g.id)) gifts.set(g.id, (gifts.get(g.id) ?? 0) + 1);
  }
  let variety = { share: 0, department: "", gift: "" };
  for (const [department, gifts] of offInterest) {
    for (const [gift, people] of gifts) {
      const share = people / (sizes.get(department) ?? 1);
      if (share > variety.share) variety = { share, department, gift };
    }
  }
  const recipients = { met: 0, of: QUALITY_RECIPIENTS.length };
  for (const recipient of QUALITY_RECIPIENTS) {
    const { occasion, text } = recipient.as[language];
    const picks = match({
      occasion,
      budget: recipient.budget,
      interests: [],
      text,
      count: SUGGEST_PICKS,
      locale: language,
    });
    if (picks.slice(0, 3).filter((g) => onInterest(recipient.categories)(g.id)).length >= 2) recipients.met++;
  }
  return { fit, overBudget, budgetUsed: used / QUALITY_PEOPLE.length, variety, placed, recipients };
}

/** One pass of `reps` matches per person, the budgets varied so the answers are not all alike; ms. */
function matchPass(language: Language, reps: number): number {
  const t0 = performance.now();
  for (let k = 0; k < reps; k++) {
    for (const person of QUALITY_PEOPLE) {
      const { department, occasion, interests } = person.as[language];
      const budget = person.budget + (k % 50);
      shippedMatcher({ occasion, budget, interests, department, count: JOB_PICKS, locale: language });
    }
  }
  return performance.now() - t0;
}

/** Matches per second in each language, the best of `rounds` passes taken in turns, so both see the same noise. */
function matchesPerSecond(rounds: number, reps: number): Record<Language, number> {
  const best = { en: Infinity, ko: Infinity };
  for (let r = 0; r < rounds; r++) for (const l of LANGUAGES) best[l] = Math.min(best[l], matchPass(l, reps));
  const perSecond = (ms: number) => (reps * QUALITY_PEOPLE.length) / (ms / 1000);
  return { en: perSecond(best.en), ko: perSecond(best.ko) };
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

/** A row with no baseline: a figure against its goal, or for reference (`met` null). */
function goal(metric: string, value: number, unit: string, target: string, met: boolean | null): BenchRow {
  return row({ section: "quality", metric, value, unit, baseline: null, baselineName: "", target, met });
}

/** Rows: each quality figure per language against its goal, and Korean matching speed against English. */
export async function benchQuality({ quick, smoke }: BenchOptions): Promise<BenchRow[]> {
  const figures = { en: measureQuality("en"), ko: measureQuality("ko") };
  const fitOf = (l: Language) => percent(figures[l].fit.met, figures[l].fit.of);
  const rows: BenchRow[] = [];
  for (const l of LANGUAGES) {
    const f = figures[l];
    const fit = fitOf(l);
    const english = l === "en";
    const worst = `${f.variety.department}: ${f.variety.gift || "none"}`;
    rows.push(
      row({
        section: "quality",
        metric: `${l}: interest fit, ≥ 2 of top 3 on interest (${f.fit.met} of ${f.fit.of} people)`,
        value: fit,
        unit: "%",
        baseline: english ? null : fitOf("en"),
        baselineName: english ? "" : "English",
        target: english ? "≥ 95" : "≥ 95, within 2 of English",
        met: fit >= 95 && (english || fitOf("en") - fit <= 2),
      }),
      goal(`${l}: picks over budget`, f.overBudget, "", "0", f.overBudget === 0),
      goal(`${l}: top pick's share of the budget, mean`, Math.round(f.budgetUsed * 1000) / 10, "%", "–", null),
      goal(
        `${l}: one gift off interest in a department, worst (${worst})`,
        Math.round(f.variety.share * 1000) / 10,
        "%",
        "≤ 20",
        f.variety.share <= 0.2,
      ),
      goal(
        `${l}: interests placed (${f.placed.met} of ${f.placed.of})`,
        percent(f.placed.met, f.placed.of),
        "%",
        "≥ 98",
        f.placed.met >= 0.98 * f.placed.of,
      ),
      goal(
        `${l}: suggest_gifts recipients, ≥ 2 of top 3 on interest`,
        f.recipients.met,
        `of ${f.recipients.of}`,
        "≥ 11",
        f.recipients.met >= 11,
      ),
    );
  }
  const speed = matchesPerSecond(smoke ? 1 : quick ? 5 : 15, smoke ? 1 : 100);
  rows.push(
    row({
      section: "quality",
      metric: "matches/s, the same people in Korean",
      value: speed.ko,
      unit: "/s",
      baseline: speed.en,
      baselineName: "in English",
      target: "≥ 0.8×",
      met: speed.ko >= 0.8 * speed.en,
    }),
  );
  return rows;
}
