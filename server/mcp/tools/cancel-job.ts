/** `cancel_job`: the widget's cancel button (hidden from the model); an ended job stays as it is, and says so. */
import { CancelJobOutput, JobIdInput, TOOL } from "../../../shared/tools.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

export const cancelJobTool = defineTool(({ jobs }: ToolDeps) => ({
  name: TOOL.cancelJob,
  title: "Cancel job",
  description: "Cancels a running gift-analysis job. Does nothing to a job that has already ended.",
  input: JobIdInput,
  output: CancelJobOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  ui: { calledByWidget: true, hiddenFromModel: true },
  run: (args, { caller }) => jobs.cancel(args, caller),
  say: (r) => (r.changed ? `Canceled job ${r.jobId}.` : `Job ${r.jobId} is already ${r.status}; nothing was canceled.`),
}));
