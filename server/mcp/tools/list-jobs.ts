/** `list_jobs`: the caller's analyses, newest first, a page at a time (jobs/reads.ts); never a staff-list name. */
import { ListJobsInput, ListJobsOutput, TOOL, type JobSummary } from "../../../shared/tools.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

/** One job as a line of the list: id, title, where it stands, when it started (and ended). */
function line(job: JobSummary): string {
  const title = job.title === null ? "" : ` "${job.title}"`;
  const counts = job.processed !== null && job.total !== null ? `, ${job.processed} of ${job.total}` : "";
  const where =
    job.status === "running"
      ? `running, ${Math.floor(job.percentage)}%${job.stage ? ` (${job.stage}${counts})` : ""}`
      : job.status === "completed"
        ? `completed, ${job.resultCount === 1 ? "1 person" : `${job.resultCount ?? 0} people`} in the result`
        : job.status;
  return `- ${job.jobId}${title}: ${where}; started ${job.createdAt}${job.endedAt ? `, ended ${job.endedAt}` : ""}`;
}

function listText(jobs: JobSummary[], nextCursor: string | null, older: boolean, retentionHours: number): string {
  if (jobs.length === 0 && nextCursor === null)
    return (
      `No ${older ? "older " : ""}gift analyses: an analysis is kept ${retentionHours} hours after it starts. ` +
      `Start one with ${TOOL.startBulk}.`
    );
  const head = older ? "Older gift analyses, newest first:" : "The user's gift analyses, newest first:";
  const more = nextCursor === null ? "" : ` Older ones: call ${TOOL.listJobs} with cursor "${nextCursor}".`;
  return (
    `${[head, ...jobs.map(line)].join("\n")}\n` +
    `Show one's card again (live progress, or its result) with ${TOOL.showJob} and its jobId; ` +
    `${TOOL.waitForJob} waits for a running one, ${TOOL.getJobResult} reads a finished one's picks.${more}`
  );
}

export const listJobsTool = defineTool(({ jobs }: ToolDeps) => {
  const retentionHours = Math.round(jobs.limits.retentionMs / 3_600_000);
  return {
    name: TOOL.listJobs,
    title: "List gift analyses",
    description:
      "Lists the user's gift analyses (bulk jobs), newest first, a page at a time: each one's jobId, title, " +
      "status, progress (percentage, stage, rows done of all), people in the result, currency, and when it " +
      'started and ended. Use it when the user asks about an earlier analysis ("how is my analysis going?") ' +
      `and its jobId is not at hand; then ${TOOL.showJob} shows its card again.`,
    input: ListJobsInput,
    output: ListJobsOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: ({ cursor, limit }, { caller }) => jobs.list(caller, { cursor, limit }),
    say: (page, { cursor }) => listText(page.jobs, page.nextCursor, cursor !== undefined, retentionHours),
  };
});
