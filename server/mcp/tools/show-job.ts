/** `show_job`: one of the caller's analyses shown again in the widget, in the start's shape. */
import { isFinished, type JobView } from "../../../shared/job-view.js";
import { JobIdInput, ShowJobOutput, TOOL, URI, type StartBulkResult } from "../../../shared/tools.js";
import { defineTool, failure, success, type ToolDeps } from "../tool-registry.js";

/** A job as its start answered it, with the summary once it has ended (also a finished task's result). */
export const shownAs = (view: JobView): StartBulkResult => ({
  jobId: view.jobId,
  status: view.status,
  stages: view.stages.map(({ id, label }) => ({ id, label })),
  resultUri: URI.jobResult(view.jobId),
  currency: view.currency ?? "USD",
  ...(isFinished(view.status) && { summary: view.summary, resultCount: view.resultCount }),
});

/** Where the job stands, in a sentence for the model. */
function standing(view: JobView): string {
  const job = `Job ${view.jobId}${view.title ? ` ("${view.title}")` : ""}`;
  if (view.status === "completed")
    return `${job} completed: ${view.summary ?? "done"} The widget shows its result; ${TOOL.getJobResult} reads the picks.`;
  if (view.status === "failed")
    return `${job} failed: ${view.error?.message ?? "unknown error"} The widget shows why and offers to run it again.`;
  if (view.status === "canceled") return `${job} was canceled. The widget shows how far it got.`;
  const stage = view.stageLabel ? ` (${view.stageLabel})` : "";
  return (
    `${job} is ${view.status}, ${Math.floor(view.percentage)}% done${stage}. The widget follows it live; ` +
    `call ${TOOL.waitForJob} to wait for the end.`
  );
}

export const showJobTool = defineTool(({ jobs }: ToolDeps) => ({
  name: TOOL.showJob,
  title: "Show a gift analysis",
  description:
    "Shows one of the user's gift analyses again in the widget: its live progress while it runs, its result " +
    `once finished. Use it when the user wants to see an earlier analysis; find its jobId with ${TOOL.listJobs}.`,
  input: JobIdInput,
  output: ShowJobOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { renders: { invoking: "Opening the gift analysis…", invoked: "Gift analysis shown" } },
  async run({ jobId }, { caller }) {
    const now = await jobs.waitFor({ jobId, timeoutMs: 0 }, caller, () => {});
    return now.ok ? success(shownAs(now.value.view), standing(now.value.view)) : failure(now.error);
  },
}));
