/** `claim_job_follow_up` (the widget's): `claimed` once per ended job, however many cards on whichever instance. */
import { ClaimFollowUpOutput, JobIdInput, TOOL } from "../../../shared/tools.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

export const claimFollowUpTool = defineTool(({ jobs }: ToolDeps) => ({
  name: TOOL.claimFollowUp,
  title: "Claim a job's follow-up",
  description:
    "Used by the widget: claims the one message that tells the chat a gift-analysis job ended. `claimed` is " +
    "true for exactly one call per job, once it has ended; false for every other call and while it runs.",
  input: JobIdInput,
  output: ClaimFollowUpOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  ui: { calledByWidget: true, hiddenFromModel: true },
  run: ({ jobId }, { caller }) => jobs.claimFollowUp(jobId, caller),
  say: (r) =>
    r.claimed
      ? `This card tells the chat that job ${r.jobId} ended.`
      : `Job ${r.jobId} has not ended, or its end was told already: send nothing.`,
}));
