/**
 * Coalesced progress over a bulk analysis's stages, each priced by how many of the job's people ask
 * something new (`Mix`). Within a stage a report goes out only when the whole percentage moves, so
 * even a 200,000-row job sends about a hundred. The ETA is the work left at the rates observed.
 */
import type { Stage } from "../../../shared/job-events.js";
import { BULK_STAGES as STAGES, type BulkStage } from "../../../shared/stage-words.js";
import type { EventDraft } from "../state-machine.js";
import type { Person } from "../../files/read/people/rows.js";
import type { Share } from "./slice-turns.js";
import type { JobTexts } from "./texts.js";

/**
 * Each stage's cost after parsing, in parse time per row: `row` for every person, `new` for each whose
 * interests (extract) or whole request (match, compose) is new in the job. Fitted on 200,000-row lists
 * (fourteen jobs), from every row new (parse/extract/match/compose 36/6/40/19 % of the time) to ten
 * interest texts for everyone (81/1/4/13 %); `npm run bench` (eta) checks the bar against the clock.
 */
const COST: Record<Exclude<BulkStage, "parse">, { row: number; new: number }> = {
  extract: { row: 0.01, new: 0.37 },
  match: { row: 0.05, new: 1.05 },
  compose: { row: 0.16, new: 0.37 },
};

export type Mix = { rows: number; newInterests: number; newRequests: number };
/** Every row new: what a job is priced as before its first row is read. */
const ALL_NEW: Mix = { rows: 1, newInterests: 1, newRequests: 1 };

/** Percent of the whole job each stage takes for people of `mix`; they add up to 100. */
export function stageWeights(mix: Mix): Record<BulkStage, number> {
  const rows = Math.max(1, mix.rows);
  const cost = (id: keyof typeof COST, seen: number) => COST[id].row + (COST[id].new * seen) / rows;
  const parts = {
    parse: 1,
    extract: cost("extract", mix.newInterests),
    match: cost("match", mix.newRequests),
    compose: cost("compose", mix.newRequests),
  };
  const sum = parts.parse + parts.extract + parts.match + parts.compose;
  return Object.fromEntries(STAGES.map((id) => [id, (100 * parts[id]) / sum])) as Record<BulkStage, number>;
}

/**
 * Counts the mix of people as they are parsed: distinct interest texts exactly, distinct requests
 * estimated as K(1 − e^(−rows/K)) over K pairings of texts with (department, budget) pairs, so no key
 * is kept per person. `end` fixes the mix and lets go of the texts.
 */
export function countMix(): { add(person: Person): void; mix: () => Mix; end(): void } {
  const texts = new Set<string>();
  const budgets = new Map<string | null, Set<number>>(); // by department
  let pairs = 0;
  let rows = 0;
  let final: Mix | undefined;
  const mix = (): Mix => {
    const k = texts.size * pairs;
    return final ?? { rows, newInterests: texts.size, newRequests: k === 0 ? 0 : k * -Math.expm1(-rows / k) };
  };
  return {
    add({ interestsText, department, budget }) {
      rows++;
      texts.add(interestsText);
      let seen = budgets.get(department);
      if (seen === undefined) budgets.set(department, (seen = new Set()));
      if (!seen.has(budget)) {
        seen.add(budget);
        pairs++;
      }
    },
    mix,
    end() {
      final = mix();
      texts.clear();
      budgets.clear();
    },
  };
}

/** Where each stage begins on the bar: the weights of the stages before it. */
const startsOf = (weights: Record<BulkStage, number>) =>
  Object.fromEntries(STAGES.map((id, i) => [id, STAGES.slice(0, i).reduce((at, before) => at + weights[before], 0)]));

/** The plan as a fresh array, for the wire. */
export const stagePlan = (texts: JobTexts): Stage[] => STAGES.map((id) => ({ id, label: texts.stage[id] }));

type ProgressDraft = Extract<EventDraft, { type: "job.progress" }>;
export type Progress = ReturnType<typeof createProgress>;

/** The bar's place (a stage and how far into it) at `ms` of the job's slice time. */
type Mark = { stage: BulkStage; fraction: number; ms: number };

/** `share` tells the job's slice time and makes ETAs; `mix` tells the people parsed so far. */
export function createProgress(
  emit: (draft: ProgressDraft) => Promise<void>,
  share: Pick<Share, "busy" | "eta">,
  texts: JobTexts,
  mix: () => Mix = () => ALL_NEW,
) {
  let stage: BulkStage = "parse";
  let total = 0;
  let reported = -1; // last percentage sent
  let stageStartedAt = 0; // the job's slice ms when its stage began
  let weight = stageWeights(ALL_NEW);
  let start = startsOf(weight);
  /** Where the bar stood at each ETA, so the points follow the weights as they change. */
  const marks: Mark[] = [];
  const pointsAt = (mark: Mark) => start[mark.stage] + weight[mark.stage] * mark.fraction;
  const fractionOf = (processed: number) => (total > 0 ? Math.min(1, processed / total) : 1);

  function weigh() {
    if (stage !== "parse") return;
    const now = mix();
    weight = stageWeights(now.rows > 0 ? now : ALL_NEW);
    start = startsOf(weight);
  }

  function draft(processed: number, percentage: number): ProgressDraft {
    const ms = share.busy();
    const payload: ProgressDraft["payload"] = {
      percentage,
      stage,
      stageLabel: texts.stage[stage],
      message: texts.progress[stage](texts.count(processed), texts.count(total)),
      processed,
      total,
    };
    // no ETA on entering a stage: the rate so far says little about the stage just begun
    if (processed > 0 && percentage >= 1 && ms > 0)
      payload.etaSeconds = Math.round(share.eta(workLeftMs(processed, ms)) / 100) / 10;
    return { type: "job.progress", payload };
  }

  /**
   * The slice time left: later stages at the job's recent rate, the rest of this stage at its own,
   * trusted as far as the stage has got. The recent rate is that of the later half of the points: the
   * first slices, run cold, are slower and would make every estimate of a short job too long.
   */
  function workLeftMs(processed: number, ms: number): number {
    const fraction = fractionOf(processed);
    const points = pointsAt({ stage, fraction, ms });
    const from = marks.findLast((mark) => pointsAt(mark) <= points / 2);
    const span = from === undefined ? 0 : points - pointsAt(from);
    const perPoint = from !== undefined && span > 0 ? (ms - from.ms) / span : ms / points;
    marks.push({ stage, fraction, ms });
    const later = (100 - start[stage] - weight[stage]) * perPoint;
    const byWeight = weight[stage] * (1 - fraction) * perPoint;
    const byStage = ((ms - stageStartedAt) * (1 - fraction)) / fraction;
    return later + fraction * byStage + (1 - fraction) * byWeight;
  }

  /** The report `advance` would send, returned instead, for the caller to send with what comes next. */
  function close(processed: number): ProgressDraft | undefined {
    weigh();
    const p = Math.floor(start[stage] + weight[stage] * fractionOf(processed));
    if (p <= reported || p >= 100) return undefined; // 100 belongs to job.completed
    reported = p;
    return draft(processed, p);
  }

  return {
    /** Enters stage `next` with `items` items; always reported. */
    async enter(next: BulkStage, items: number): Promise<void> {
      weigh(); // the last shares of parsing, as it ends
      stage = next;
      total = items;
      stageStartedAt = share.busy();
      reported = Math.max(reported, Math.floor(start[next]));
      await emit(draft(0, reported));
    },
    /** `processed` items of the current stage are done; reported when the percentage moves a point. */
    async advance(processed: number): Promise<void> {
      const report = close(processed);
      if (report !== undefined) await emit(report);
    },
    close,
  };
}
