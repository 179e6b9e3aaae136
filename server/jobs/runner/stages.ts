/**
 * The plan of a bulk gift analysis: its stages in order, as announced in `job.created`, and the
 * share of the work each one takes, measured on large files, from which the percentage is computed.
 */
import type { Stage } from "../../../shared/job-events.js";
import { BULK_STAGES as STAGES, type BulkStage } from "../../../shared/stage-words.js";
import type { JobTexts } from "./texts.js";

export type StageId = BulkStage;

/**
 * Percent of the whole job each stage takes; they add up to 100. Measured as each stage's share of
 * the time of jobs of 100,000 to 150,000 rows (parse 26-34 %, extract 6-11 %, match 40-45 %, compose
 * 18-24 %, since rows are read with their IDs, interests split and budgets read as money), so that
 * the bar moves with the work and the ETA, which prices the stages to come by them, is honest
 * (server/jobs/eta.test.ts); `npm run bench` reports how far the bar stands from the time gone by
 * at each stage start, and how far the ETAs were from the real end.
 */
const WEIGHT: Record<StageId, number> = { parse: 30, extract: 7, match: 43, compose: 20 };

/** Where each stage starts, in percent. */
export const STAGE_START = (() => {
  let at = 0;
  const start = {} as Record<StageId, number>;
  for (const id of STAGES) {
    start[id] = at;
    at += WEIGHT[id];
  }
  return start;
})();

export const stageWeight = (id: StageId): number => WEIGHT[id];
/** The plan as a fresh array, for the wire, labelled in the job's language. */
export const stagePlan = (texts: JobTexts): Stage[] => STAGES.map((id) => ({ id, label: texts.stage[id] }));
