/**
 * One job's work, wherever it runs: the stages against the shared store through the event log,
 * and the job's end as failed when the work fails. A stop (cancel, closing, a job that has ended
 * or been deleted meanwhile) leaves no event of its own: whoever stopped the job records its end.
 */
import { isFinished } from "../../shared/job-view.js";
import { TOOL } from "../../shared/tools.js";
import type { Caller } from "./caller.js";
import type { ExecutorContext, Failed, RunOptions } from "./executor.js";
import { JobFailure, JobStopped, runBulkAnalysis, type BulkRun } from "./runner/bulk-analysis.js";
import type { SliceTurns } from "./runner/slice-turns.js";
import { StorageFullError, StoreUnavailableError } from "../store-errors.js";
import { traceStages } from "../observability/tracing.js";

/** What a job ends with when the store had no room for its next write (SQLite's, a full disk). */
const storageFull: Failed["payload"] = {
  code: "internal",
  message: "The analysis stopped because the server's job storage is full.",
  hint: `Try again with ${TOOL.startBulk} once old jobs have expired or space has been freed.`,
  retryable: true,
};

/** What a job that lost its store mid-run ends with, once the store is back. */
const storeLost: Failed["payload"] = {
  code: "store_unavailable",
  message: "The job store became unreachable while this job ran, so it stopped before finishing.",
  hint: `Run the analysis again with ${TOOL.startBulk}.`,
  retryable: true,
};

/** What a run needs from its executor, besides the context: the job's run options for the hook. */
type Run = Omit<BulkRun, "signal" | "emit" | "putChunk" | "turns" | "beforeSlice"> & { runOptions?: RunOptions };

/** Runs `run` to its end; resolves once the job has ended or stopped, never rejects for the job's sake. */
export async function runJob(
  { store, log, report, end, beforeSlice }: ExecutorContext,
  turns: SliceTurns,
  { runOptions = {}, ...run }: Run,
  owner: Caller,
  signal: AbortSignal,
): Promise<void> {
  const { jobId } = run;
  const stages = traceStages();
  try {
    if (signal.aborted) return;
    await runBulkAnalysis({
      ...run,
      turns,
      signal,
      beforeSlice: beforeSlice && ((aborted) => beforeSlice(runOptions, aborted)),
      // a chunk refused because the job has just ended fails the run; its end is already recorded
      putChunk: (index, body) => store.putResultChunk(jobId, index, body),
      emit: async (drafts, head) => {
        const appended = await stages.appending(drafts, () => log.append(jobId, owner, drafts, head));
        if (!appended.ok) throw new JobStopped(appended.reason);
      },
    });
  } catch (error) {
    // stopped means canceled (already recorded) or closing (close records it)
    if (error instanceof JobStopped || signal.aborted) return;
    // ended meanwhile by another process (a cancel on another instance): its end is recorded
    // there; deleted meanwhile (delete_job writes no end first): there is nothing to record
    const stored = await store.getJob(jobId).catch(() => null);
    if (stored === undefined || (stored !== null && isFinished(stored.status))) return;
    // a lost store was told of when the connection dropped
    if (!(error instanceof JobFailure || error instanceof StoreUnavailableError)) report(`running job ${jobId}`)(error);
    const payload: Failed["payload"] =
      error instanceof StoreUnavailableError
        ? storeLost
        : error instanceof StorageFullError
          ? storageFull
          : error instanceof JobFailure
            ? {
                code: error.code,
                message: error.message,
                ...(error.hint === undefined ? {} : { hint: error.hint }),
                retryable: false,
              }
            : {
                code: "internal",
                message: "The analysis stopped on an unexpected error.",
                hint: `Try again with ${TOOL.startBulk}; if it fails again, check the file for unusual content.`,
                retryable: true,
              };
    await end(jobId, owner, { type: "job.failed", payload });
  } finally {
    stages.end();
  }
}
