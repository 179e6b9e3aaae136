/** `delete_job`: one of the caller's jobs and all its data deleted now (a running one canceled first). */
import { DeleteJobOutput, JobIdInput, TOOL } from "../../../shared/tools.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

export const deleteJobTool = defineTool(({ jobs }: ToolDeps) => ({
  name: TOOL.deleteJob,
  title: "Delete job",
  description:
    "Deletes a gift-analysis job and all its data now: its events, its result and the employee list it was " +
    "given. A running job is canceled first. This cannot be undone.",
  input: JobIdInput,
  output: DeleteJobOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  ui: { calledByWidget: true },
  run: (args, { caller }) => jobs.delete(args, caller),
  say: (r) => `Deleted job ${r.jobId}${r.canceled ? ", which was canceled first" : ""}, with all its data.`,
}));
