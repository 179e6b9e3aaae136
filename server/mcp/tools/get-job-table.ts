/**
 * `get_job_table`: the result as the widget's table reads it, 5,000 people a call: each person as
 * one row (name, department, budget, top pick and its price), without the reasons and interests
 * that make `get_job_result`'s people six times larger, so a 200,000-person result fills the table
 * in 40 calls. While the job runs, the people composed so far. Hidden from the model, which has
 * `get_job_result`.
 */
import { GetJobTableInput, GetJobTableOutput, tableRowOf, TOOL } from "../../../shared/tools.js";
import type { JobService } from "../../jobs/job-service.js";
import { toolMeta, type Widget } from "../../widget.js";
import { defineTool } from "../tool-registry.js";
import { fromOutcome, success } from "../tool-results.js";

export function getJobTableTool({ jobs, widget }: { jobs: JobService; widget: Widget }) {
  return defineTool({
    name: TOOL.getJobTable,
    title: "Get job table",
    description:
      "Returns the people of a bulk gift analysis as table rows (row, name, department, budget, top pick, its " +
      "price), from `offset`, up to `limit`; while the job runs, those composed so far.",
    input: GetJobTableInput,
    output: GetJobTableOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: toolMeta(widget, { calledByWidget: true, hiddenFromModel: true }),
    async run({ jobId, offset, limit }, { caller }) {
      return fromOutcome(await jobs.getResult({ jobId, offset, limit }, caller), (page) => {
        const rows = page.people.map(tableRowOf);
        const { total, nextOffset, partial } = page;
        return success(
          { jobId, total, offset, nextOffset, rows, partial },
          `${rows.length} of ${total} people of job ${jobId} from ${offset}` +
            (nextOffset === null ? "." : `; call again with offset ${nextOffset} for the next.`),
        );
      });
    },
  });
}
