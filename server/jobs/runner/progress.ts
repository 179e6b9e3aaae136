/**
 * Coalesced progress over the plan of a bulk gift analysis: its stages in order, as announced in
 * `job.created`, and the share of the work each one takes, from which the percentage is computed.
 * A stage change is always reported; within a stage a report goes out only when the whole-number
 * percentage moves, so even a 200,000-row job sends about a hundred. The ETA is the work left at
 * the rates observed (`workLeftMs`), in the job's own slice time, made wall-clock time by the
 * turns the job shares with others (slice-turns.ts).
 */
import type { Stage } from "../../../shared/job-events.js";
import { BULK_STAGES as STAGES, type BulkStage } from "../../../shared/stage-words.js";
import type { EventDraft } from "../state-machine.js";
import type { Share } from "./slice-turns.js";
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
export const STAGE_START = Object.fromEntries(
  STAGES.map((id, i) => [id, STAGES.slice(0, i).reduce((at, before) => at + WEIGHT[before], 0)]),
) as Record<StageId, number>;

export const stageWeight = (id: StageId): number => WEIGHT[id];
/** The plan as a fresh array, for the wire, labelled in the job's language. */
export const stagePlan = (texts: JobTexts): Stage[] => STAGES.map((id) => ({ id, label: texts.stage[id] }));

type ProgressDraft = Extract<EventDraft, { type: "job.progress" }>;
export type Progress = {
  /** Enters `stage` with `total` items to go through; always reported. */
  enter(stage: StageId, total: number): Promise<void>;
  /** `processed` items of the current stage are done; reported when the percentage moves a point. */
  advance(processed: number): Promise<void>;
  /**
   * The current stage's last items are done: the report `advance` would send, returned instead,
   * for the caller to send with what comes right after (the next stage, the job's end) in one append.
   */
  close(processed: number): ProgressDraft | undefined;
};

/** `share` tells the job's slice time and makes ETAs of its work left; `texts` words the messages. */
export function createProgress(
  emit: (draft: ProgressDraft) => Promise<void>,
  share: Pick<Share, "busy" | "eta">,
  texts: JobTexts,
): Progress {
  let stage: StageId = "parse";
  let total = 0;
  let reported = -1; // last percentage sent
  let stageStartedAt = 0; // the job's slice ms when its stage began

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
    if (processed > 0 && percentage >= 1 && ms > 0) {
      payload.etaSeconds = Math.round(share.eta(workLeftMs(processed, ms)) / 100) / 10;
    }
    return { type: "job.progress", payload };
  }

  /**
   * The slice time left, from `ms` spent so far: the stages still to come at the rate of the job so
   * far (its ms per point of the bar), and the rest of this stage at its own rate, trusted as far as
   * the stage has got, since a stage that runs a little faster or slower than its weight says would
   * otherwise skew the estimate most near the end.
   */
  function workLeftMs(processed: number, ms: number): number {
    const fraction = total > 0 ? Math.min(1, processed / total) : 1;
    const weight = stageWeight(stage);
    const perPoint = ms / (STAGE_START[stage] + weight * fraction);
    const later = (100 - STAGE_START[stage] - weight) * perPoint;
    const byWeight = weight * (1 - fraction) * perPoint;
    const byStage = ((ms - stageStartedAt) * (1 - fraction)) / fraction;
    return later + fraction * byStage + (1 - fraction) * byWeight;
  }

  function percentAt(processed: number): number {
    const fraction = total > 0 ? Math.min(1, processed / total) : 1;
    return Math.max(reported, Math.floor(STAGE_START[stage] + stageWeight(stage) * fraction));
  }

  function close(processed: number): ProgressDraft | undefined {
    const p = percentAt(processed);
    if (p <= reported || p >= 100) return undefined; // 100 belongs to job.completed
    reported = p;
    return draft(processed, p);
  }

  return {
    async enter(next, items) {
      stage = next;
      total = items;
      stageStartedAt = share.busy();
      reported = Math.max(reported, STAGE_START[next]);
      await emit(draft(0, reported));
    },
    async advance(processed) {
      const report = close(processed);
      if (report !== undefined) await emit(report);
    },
    close,
  };
}
