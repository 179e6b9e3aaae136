/**
 * The widget's one-shot job actions: cancel a job, and start the same analysis again after a
 * retryable failure. Each goes through the host bridge and comes back parsed.
 */
import * as z from "zod/mini";
import { CancelJobOutput, StartBulkInput, StartBulkOutput, TOOL, type StartBulkResult } from "../../shared/tools.js";
import type { Host } from "./host.js";
import type { ToolOutcome } from "./tool-reply.js";

export type CancelResult = z.infer<typeof CancelJobOutput>;

/** Asks the server to cancel; the loop then sees `job.canceled` arrive like any other event. */
export function cancelJob(host: Host, jobId: string): Promise<ToolOutcome<CancelResult>> {
  return host.callTool(TOOL.cancelJob, { jobId }, CancelJobOutput);
}

/** The original arguments of start_bulk_gift_analysis, when the host's `toolInput` holds them. */
export function originalStartInput(toolInput: unknown): z.infer<typeof StartBulkInput> | null {
  const parsed = StartBulkInput.safeParse(toolInput);
  return parsed.success ? parsed.data : null;
}

/** Starts the analysis again with the original arguments; the reply names the new job. */
export function restartJob(host: Host, input: z.infer<typeof StartBulkInput>): Promise<ToolOutcome<StartBulkResult>> {
  return host.callTool(TOOL.startBulk, input, StartBulkOutput);
}
