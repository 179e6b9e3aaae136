/**
 * Coalesced progress: a stage change is always reported; within a stage a report goes out only
 * when the whole-number percentage moves, so even a 200,000-row job sends about a hundred. The
 * ETA is the work left at the rates observed (`etaMs`).
 */
import type { EventDraft } from "../state-machine.js";
import { STAGE_START, stageWeight, type StageId } from "./stages.js";
import type { JobTexts } from "./texts.js";

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

/** `elapsed` is the monotonic time since the job started, in ms; `texts` words the messages. */
export function createProgress(
  emit: (draft: ProgressDraft) => Promise<void>,
  elapsed: () => number,
  texts: JobTexts,
): Progress {
  let stage: StageId = "parse";
  let total = 0;
  let reported = -1; // last percentage sent
  let stageStartedAt = 0; // ms after the job's start

  function draft(processed: number, percentage: number): ProgressDraft {
    const ms = elapsed();
    const payload: ProgressDraft["payload"] = {
      percentage,
      stage,
      stageLabel: texts.stage[stage],
      message: texts.progress[stage](texts.count(processed), texts.count(total)),
      processed,
      total,
    };
    // no ETA on entering a stage: the rate so far says little about the stage just begun
    if (processed > 0 && percentage >= 1 && ms > 0) payload.etaSeconds = Math.round(etaMs(processed, ms) / 100) / 10;
    return { type: "job.progress", payload };
  }

  /**
   * The time left: the stages still to come at the rate of the job so far (its ms per point of the
   * bar), and the rest of this stage at its own rate, trusted as far as the stage has got, since a
   * stage that runs a little faster or slower than its weight says would otherwise skew the
   * estimate most near the end.
   */
  function etaMs(processed: number, ms: number): number {
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
      stageStartedAt = elapsed();
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
