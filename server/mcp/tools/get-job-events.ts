/** `get_job_events`: the widget's follow loop; a job's events after a sequence number, long-polling up to `waitMs`. */
import { GetJobEventsInput, GetJobEventsOutput, TOOL } from "../../../shared/tools.js";
import { defineTool, type ToolDeps } from "../tool-registry.js";

export const getJobEventsTool = defineTool(({ jobs }: ToolDeps) => ({
  name: TOOL.getJobEvents,
  title: "Get job events",
  description:
    "Returns the events of a gift-analysis job after `afterSeq`, waiting up to `waitMs` for new ones. " +
    "Pass `nextSeq` from the previous answer as the next `afterSeq`.",
  input: GetJobEventsInput,
  output: GetJobEventsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { calledByWidget: true, hiddenFromModel: true },
  run: (args, { caller, signal }) => jobs.getEvents(args, caller, signal),
  say: (page) =>
    `${page.events.length} new event(s) for job ${page.jobId}; it is ${page.status}. ` +
    (page.done ? "The job has ended." : `Call again with afterSeq ${page.nextSeq} for what comes next.`),
}));
