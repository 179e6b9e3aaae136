/**
 * `cancel_job`: stops a running gift-analysis job. Called by the widget's cancel button; hidden
 * from the model. Canceling an ended job changes nothing and says so.
 */
import { CancelJobInput, CancelJobOutput, TOOL } from "../../../shared/tools.js";
import type { JobService } from "../../jobs/job-service.js";
import { toolMeta, type Widget } from "../../widget.js";
import { defineTool } from "../tool-registry.js";
import { fromOutcome, success } from "../tool-results.js";

export function cancelJobTool({ jobs, widget }: { jobs: JobService; widget: Widget }) {
  return defineTool({
    name: TOOL.cancelJob,
    title: "Cancel job",
    description: "Cancels a running gift-analysis job. Does nothing to a job that has already ended.",
    input: CancelJobInput,
    output: CancelJobOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    meta: toolMeta(widget, { calledByWidget: true, hiddenFromModel: true }),
    async run(args, { caller }) {
      return fromOutcome(await jobs.cancel(args, caller), (r) =>
        success(
          r,
          r.changed ? `Canceled job ${r.jobId}.` : `Job ${r.jobId} is already ${r.status}; nothing was canceled.`,
        ),
      );
    },
  });
}
