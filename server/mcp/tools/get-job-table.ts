/** `get_job_table` (the widget's): table rows, 5,000 people a call, a sixth of `get_job_result`'s size. */
import { GetJobTableInput, GetJobTableOutput, tableRowOf, TOOL } from "../../../shared/tools.js";
import { ok } from "../../outcomes.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

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
    if (!page.ok) return page;
    const { total, nextOffset, partial, people } = page.value;
    return ok({ jobId, total, offset, nextOffset, rows: people.map(tableRowOf), partial });
  },
  say: (t) =>
    `${t.rows.length} of ${t.total} people of job ${t.jobId} from ${t.offset}` +
    (t.nextOffset === null ? "." : `; call again with offset ${t.nextOffset} for the next.`),
}));
