/**
 * `get_job_result`: one page of a finished job's picks, person by person, with a link to the full
 * result resource; while the job runs, the people it has composed so far. Called by the widget to
 * page through results (and show them as they come), and by the model to discuss them.
 */
import { GetJobResultInput, GetJobResultOutput, TOOL, type GetJobResultResult } from "../../../shared/tools.js";
import { dollars } from "../../gifts/reason.js";
import type { JobService } from "../../jobs/job-service.js";
import { toolMeta, type Widget } from "../../widget.js";
import { defineTool } from "../tool-registry.js";
import { fromOutcome, success } from "../tool-results.js";

function describePage(page: GetJobResultResult): string {
  const first = page.offset + 1;
  const last = page.offset + page.people.length;
  const lines = page.people.map(
    (p) =>
      `- ${p.name}${p.department ? ` (${p.department})` : ""}: ${p.gifts.map((g) => `${g.name} ${dollars(g.price)}`).join("; ") || "no gift within budget"}`,
  );
  const more = page.nextOffset === null ? "" : `\nCall again with offset ${page.nextOffset} for the next people.`;
  const skipped =
    page.skipped.length > 0 ? `\n${page.skipped.length} row(s) were skipped; see \`skipped\` for why.` : "";
  const range =
    page.people.length > 0
      ? `People ${first}–${last} of ${page.total}:`
      : `No people at offset ${page.offset} (total ${page.total}).`;
  const head = page.partial
    ? `Job ${page.jobId} is still running; these people are ready so far (call wait_for_job for the rest).`
    : page.summary;
  return `${head}\n${range}\n${lines.join("\n")}${more}${skipped}`;
}

export function getJobResultTool({ jobs, widget }: { jobs: JobService; widget: Widget }) {
  return defineTool({
    name: TOOL.getJobResult,
    title: "Get job result",
    description:
      "Returns one page of the gifts a finished bulk gift analysis picked for each person (use `offset` and " +
      "`limit` to page), the job summary, skipped rows, and a link to the full result resource. While the job " +
      "runs, returns the people ready so far with `partial: true`.",
    input: GetJobResultInput,
    output: GetJobResultOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: toolMeta(widget, { calledByWidget: true }),
    async run(args, { caller }) {
      return fromOutcome(await jobs.getResult(args, caller), (page) =>
        success(
          page,
          describePage(page),
          page.partial
            ? []
            : [
                {
                  type: "resource_link",
                  uri: page.resultUri,
                  name: `gift-analysis-${page.jobId}`,
                  title: "Full gift analysis result",
                  description: `All ${page.total} people with their gifts, as JSON.`,
                  mimeType: "application/json",
                },
              ],
        ),
      );
    },
  });
}
