/** `wait_for_job`: waits for a job's end or the timeout, with `notifications/progress` (percent, stage) when asked. */
import { TOOL, WaitForJobInput, WaitForJobOutput } from "../../../shared/tools.js";
import type { JobView } from "../../../shared/job-view.js";
import { viewLogLine } from "../notifications.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

function ending(view: JobView): string {
  const { status, error } = view;
  if (status === "completed") return `completed: ${view.summary ?? "done"} Call get_job_result for the picks.`;
  if (status === "failed") return `failed: ${error?.message ?? "unknown error"}${error?.hint ? ` ${error.hint}` : ""}`;
  if (status === "canceled") return `was canceled${view.cancelReason ? `: ${view.cancelReason}` : "."}`;
  return `is still ${status} at ${view.percentage}%${view.stageLabel ? ` (${view.stageLabel})` : ""}; call wait_for_job again to keep waiting.`;
}

export const waitForJobTool = defineTool(({ jobs }: ToolDeps) => ({
  name: TOOL.waitForJob,
  title: "Wait for job",
  description:
    "Waits until a gift-analysis job ends (or `timeoutMs` passes) and returns its final view. Reports " +
    "progress while waiting when the request carries a progressToken.",
  input: WaitForJobInput,
  output: WaitForJobOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run(args, { caller, signal, progress, log }) {
    let sent = -1;
    let status: JobView["status"] | undefined;
    const onView = (view: JobView) => {
      // a line when the job starts and when it ends, heard while waiting (the first view is where it stands)
      const line = status !== undefined && view.status !== status ? viewLogLine(view) : undefined;
      if (line) log?.(line.level, line.text);
      status = view.status;
      // progress must strictly increase and name its stage
      if (view.percentage <= sent || view.stage === null) return;
      sent = view.percentage;
      progress(view.percentage, 100, view.stageLabel ?? view.stage ?? view.status);
    };
    return jobs.waitFor(args, caller, onView, signal);
  },
  say: (r) => `Job ${r.jobId} ${ending(r.view)}`,
}));
