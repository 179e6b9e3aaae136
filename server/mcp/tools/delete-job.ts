/**
 * `delete_job`: deletes one of the caller's jobs now, with its events, its result and its input,
 * instead of waiting for it to expire. A job still running is canceled first. Visible to the model
 * (a user may ask for their data to go) and callable by the widget.
 */
import { DeleteJobInput, DeleteJobOutput, TOOL } from "../../../shared/tools.js";
import type { JobService } from "../../jobs/job-service.js";
import { toolMeta, type Widget } from "../../widget.js";
import { defineTool } from "../tool-registry.js";
import { fromOutcome, success } from "../tool-results.js";

export function deleteJobTool({ jobs, widget }: { jobs: JobService; widget: Widget }) {
  return defineTool({
    name: TOOL.deleteJob,
    title: "Delete job",
    description:
      "Deletes a gift-analysis job and all its data now: its events, its result and the employee list it was " +
      "given. A running job is canceled first. This cannot be undone.",
    input: DeleteJobInput,
    output: DeleteJobOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    meta: toolMeta(widget, { calledByWidget: true }),
    async run(args, { caller }) {
      return fromOutcome(await jobs.delete(args, caller), (r) =>
        success(r, `Deleted job ${r.jobId}${r.canceled ? ", which was canceled first" : ""}, with all its data.`),
      );
    },
  });
}
