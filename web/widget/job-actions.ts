/**
 * Starting an analysis from the widget: the same one again after a retryable failure, or one of a
 * file the person uploaded. It goes through the host bridge and comes back parsed.
 */
import { StartBulkInput, StartBulkOutput, TOOL, type StartBulkArgs, type StartBulkResult } from "../../shared/tools.js";
import type { Host } from "./host.js";
import type { ToolOutcome } from "./tool-reply.js";

/** The original arguments of start_bulk_gift_analysis, when the host's `toolInput` holds them. */
export function originalStartInput(toolInput: unknown): StartBulkArgs | null {
  const parsed = StartBulkInput.safeParse(toolInput);
  return parsed.success ? parsed.data : null;
}

/**
 * Starts an analysis with `input`, in the person's language where their host says it (over the
 * model's word); the reply names the new job.
 */
export function startAnalysis(host: Host, input: StartBulkArgs): Promise<ToolOutcome<StartBulkResult>> {
  const { locale, localeFromHost } = host.getGlobals();
  return host.callTool(TOOL.startBulk, localeFromHost ? { ...input, locale } : input, StartBulkOutput);
}
