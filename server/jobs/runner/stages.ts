/**
 * The plan of a bulk gift analysis: its stages in order, as announced in `job.created`, and the
 * share of the work each one takes, measured on large files, from which the percentage is computed.
 */
import type { Stage } from "../../../shared/job-events.js";

export const STAGES = [
  { id: "parse", label: "Parsing the employee list" },
  { id: "extract", label: "Extracting interests and departments" },
  { id: "match", label: "Matching gifts per person" },
  { id: "compose", label: "Composing the result" },
] as const satisfies readonly Stage[];
export type StageId = (typeof STAGES)[number]["id"];

/** Percent of the whole job each stage takes; they add up to 100. */
const WEIGHT: Record<StageId, number> = { parse: 60, extract: 5, match: 20, compose: 15 };

/** Where each stage starts, in percent. */
export const STAGE_START = (() => {
  let at = 0;
  const start = {} as Record<StageId, number>;
  for (const s of STAGES) {
    start[s.id] = at;
    at += WEIGHT[s.id];
  }
  return start;
})();

export const stageWeight = (id: StageId): number => WEIGHT[id];
export const stageLabel = (id: StageId): string => STAGES.find((s) => s.id === id)!.label;

/** The plan as a fresh array, for the wire. */
export const stagePlan = (): Stage[] => STAGES.map((s) => ({ id: s.id, label: s.label }));
