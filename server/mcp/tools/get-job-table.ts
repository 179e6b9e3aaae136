/** `get_job_table` (the widget's): table rows, 5,000 people a call, a sixth of `get_job_result`'s size. */
import { GetJobTableInput, GetJobTableOutput, tableRowOf, TOOL } from "../../../shared/tools.js";
import { defineTool, failure, success, type ToolDeps } from "../tool-registry.js";

export const getJobTableTool = defineTool(({ jobs }: ToolDeps) => ({
  name: TOOL.getJobTable,
  title: "Get job table",
  description:
    "Returns the people of a bulk gift analysis as table rows (row, name, department, budget, top pick, its " +
    "price), from `offset`, up to `limit`; while the job runs, those composed so far.",
  input: GetJobTableInput,
  output: GetJobTableOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { calledByWidget: true, hiddenFromModel: true },
  async run({ jobId, offset, limit }, { caller }) {
    const page = await jobs.getResult({ jobId, offset, limit }, caller);
    if (!page.ok) return failure(page.error);
    const rows = page.value.people.map(tableRowOf);
    const { total, nextOffset, partial } = page.value;
    return success(
      { jobId, total, offset, nextOffset, rows, partial },
      `${rows.length} of ${total} people of job ${jobId} from ${offset}` +
        (nextOffset === null ? "." : `; call again with offset ${nextOffset} for the next.`),
    );
  },
}));
