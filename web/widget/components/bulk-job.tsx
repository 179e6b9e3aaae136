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
import type { ToolFailure } from "../tool-reply.js";
import { FailureText } from "./failure-text.js";
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
  const [retrying, setRetrying] = useState(false);
  const [retryError, setRetryError] = useState<ToolFailure | null>(null);

  // tuning is fixed for the widget's life, so only a new job (or host/store) restarts the loop
  useEffect(() => followJob({ ...tuning, host, store, jobId: job.jobId }), [host, store, job]);
  useConversation(job.jobId);

  const retry = async () => {
    if (input === null || retrying) return;
    setRetrying(true);
    setRetryError(null);
    // in the ended job's currency: the person's locale (startAnalysis) may imply another
    const currency = store.getState().jobs[job.jobId]?.currency;
    const reply = await startAnalysis(host, currency ? { currency, ...input } : input);
    setRetrying(false);
    if (reply.ok) setJob({ jobId: reply.value.jobId, stages: reply.value.stages });
    else setRetryError(reply.error);
  };

  return (
    <>
      <JobPanel
        key={job.jobId}
        jobId={job.jobId}
        plannedStages={job.stages}
        onRetry={input === null || retrying ? undefined : () => void retry()}
      />
      {retryError && <FailureText error={retryError} />}
    </>
  );
}
