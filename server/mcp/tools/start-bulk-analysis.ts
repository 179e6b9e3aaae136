/**
 * `start_bulk_gift_analysis`: starts a background job that picks gifts for every employee of a
 * CSV or list, and answers at once with the job id. Rendered by the widget, which follows the job.
 */
import { PACE_META_KEY, StartBulkInput, StartBulkOutput, TOOL } from "../../../shared/tools.js";
import type { JobService } from "../../jobs/job-service.js";
import { megabytes } from "../../jobs/limits.js";
import { localeOf } from "../../jobs/runner/texts.js";
import { toolMeta, type Widget } from "../../widget.js";
import { defineTool } from "../tool-registry.js";
import { fromOutcome, success } from "../tool-results.js";

/** The slowest pace allowed: a pause of this many ms between slices of work. */
const MAX_PACE_MS = 1_000;

/** The pause asked for, when pacing is allowed and the value is sane; otherwise none. */
function paceOf(meta: Record<string, unknown>, allowed: boolean): number | undefined {
  const pace = meta[PACE_META_KEY];
  return allowed && typeof pace === "number" && pace > 0 ? Math.min(pace, MAX_PACE_MS) : undefined;
}

export function startBulkAnalysisTool({
  jobs,
  widget,
  devPace,
}: {
  jobs: JobService;
  widget: Widget;
  devPace: boolean;
}) {
  return defineTool({
    name: TOOL.startBulk,
    title: "Start a bulk gift analysis",
    description:
      "Starts a background job that picks gifts for every employee of a team, for one occasion. Pass either " +
      "`csv` (columns name, department, interests separated by ; or |, optional budget; up to " +
      `${megabytes(jobs.limits.maxCsvBytes)} and ${jobs.limits.maxRows.toLocaleString("en-US")} rows) or ` +
      "`employees`, plus the occasion and a default budget per person. Answers at once with a jobId while the " +
      "work runs; the widget shows live progress. Then call wait_for_job to wait for the end and " +
      "get_job_result to read the picks.",
    input: StartBulkInput,
    output: StartBulkOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    // the widget calls it too, to run a failed analysis again ("Try again")
    meta: toolMeta(widget, {
      renders: { invoking: "Starting the gift analysis…", invoked: "Gift analysis started" },
      calledByWidget: true,
    }),
    async run(args, { caller, meta }) {
      // the model's word first, then the host's hint (ChatGPT sends openai/locale with each call)
      const locale = localeOf(args.locale, meta["openai/locale"]);
      return fromOutcome(await jobs.start(args, caller, { paceMs: paceOf(meta, devPace), locale }), (started) =>
        success(
          started,
          `Started job ${started.jobId} (${started.status}); stages: ${started.stages.map((s) => s.label).join(", ")}. ` +
            `The widget shows its progress live. Call wait_for_job with jobId "${started.jobId}" to wait for it, ` +
            `then get_job_result for the gifts picked per person.`,
        ),
      );
    },
  });
}
