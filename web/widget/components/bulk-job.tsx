/**
 * A bulk analysis followed live, told to the conversation, and after a retryable failure started
 * again with its original input and followed instead.
 */
import { useEffect, useState } from "react";
import type { Stage } from "../../../shared/job-events.js";
import { StartBulkInput, type StartBulkArgs } from "../../../shared/tools.js";
import { useConversation } from "../conversation.js";
import { followJob, startAnalysis, type FollowTuning } from "../follow-job.js";
import { useHost, useHostGlobal } from "../host-context.js";
import { useJobViewsApi } from "../job-views.js";
import { FailureText } from "./failure-text.js";
import { useCall } from "./use-call.js";
import { JobPanel } from "./job-panel.js";

export type FollowedJob = { jobId: string; stages: Stage[] };
export type BulkJobProps = {
  initial: FollowedJob;
  /** What started `initial` when it was not the tool input (a file the widget uploaded). */
  startInput?: StartBulkArgs;
  tuning?: FollowTuning;
};

export function BulkJob({ initial, startInput, tuning }: BulkJobProps) {
  const host = useHost();
  const store = useJobViewsApi();
  const toolInput = StartBulkInput.safeParse(useHostGlobal("toolInput"));
  const input = startInput ?? (toolInput.success ? toolInput.data : null);
  const [job, setJob] = useState(initial);

  // tuning is fixed for the widget's life, so only a new job (or host/store) restarts the loop
  useEffect(() => followJob({ ...tuning, host, store, jobId: job.jobId }), [host, store, job]);
  useConversation(job.jobId);

  const retry = useCall(async (input: StartBulkArgs) => {
    // in the ended job's currency: the person's locale (startAnalysis) may imply another
    const currency = store.getState().jobs[job.jobId]?.currency;
    const reply = await startAnalysis(host, currency ? { currency, ...input } : input);
    if (reply.ok) setJob({ jobId: reply.value.jobId, stages: reply.value.stages });
    return reply;
  });

  return (
    <>
      <JobPanel
        key={job.jobId}
        jobId={job.jobId}
        plannedStages={job.stages}
        onRetry={input === null || retry.busy ? undefined : () => void retry.run(input)}
      />
      {retry.error && <FailureText error={retry.error} />}
    </>
  );
}
