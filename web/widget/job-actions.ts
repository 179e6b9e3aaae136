/**
 * The widget's one-shot job actions: cancel a job, and start an analysis (the same one again after
 * a retryable failure, or one of a file the person uploaded). Each goes through the host bridge
 * and comes back parsed.
 */
import * as z from "zod/mini";
import {
  CancelJobOutput,
  StartBulkInput,
  StartBulkOutput,
  TOOL,
  type StartBulkArgs,
  type StartBulkResult,
} from "../../shared/tools.js";
import type { Host } from "./host.js";
import type { ToolOutcome } from "./tool-reply.js";

export type CancelResult = z.infer<typeof CancelJobOutput>;

/** Asks the server to cancel; the loop then sees `job.canceled` arrive like any other event. */
export function cancelJob(host: Host, jobId: string): Promise<ToolOutcome<CancelResult>> {
  return host.callTool(TOOL.cancelJob, { jobId }, CancelJobOutput);
}

/** The original arguments of start_bulk_gift_analysis, when the host's `toolInput` holds them. */
export function originalStartInput(toolInput: unknown): StartBulkArgs | null {
  const parsed = StartBulkInput.safeParse(toolInput);
  return parsed.success ? parsed.data : null;
}

/**
 * Starts an analysis with `input`, in the person's language where their host says it (over the
 * model's word, as a job of theirs is read in it); the reply names the new job.
 */
export function startAnalysis(host: Host, input: StartBulkArgs): Promise<ToolOutcome<StartBulkResult>> {
  const { locale, localeFromHost } = host.getGlobals();
  return host.callTool(TOOL.startBulk, localeFromHost ? { ...input, locale } : input, StartBulkOutput);
}
