/**
 * One job as a person sees it: status, progress bar, current stage, timing and the stage list,
 * then Cancel while it runs, the result when completed, the failure (and "Try again") when failed.
 * It only selects from the stores and renders; the follow loop feeds them.
 */
import { useState } from "react";
import type { Stage } from "../../../shared/job-events.js";
import { stageJustEntered } from "../../../shared/job-reducer.js";
import type { StageView } from "../../../shared/job-view.js";
import { useHost } from "../host.js";
import { useMessages } from "../i18n.js";
import { cancelJob } from "../job-actions.js";
import { useJobViews } from "../job-views.js";
import type { ToolFailure } from "../tool-reply.js";
import { FailureText } from "./failure-text.js";
import { JobResult } from "./job-result.js";
import { JobTiming } from "./job-timing.js";
import { ProgressBar } from "./progress-bar.js";
import { StageList } from "./stage-list.js";

export type JobPanelProps = {
  jobId: string;
  /** The plan announced by start_bulk_gift_analysis, shown until the first event arrives. */
  plannedStages: Stage[];
  /** Present when the original input is known: starts the analysis again after a retryable failure. */
  onRetry?: () => void;
};

/** Renders the job `jobId` from the job store. */
export function JobPanel({ jobId, plannedStages, onRetry }: JobPanelProps) {
  const t = useMessages();
  const view = useJobViews((s) => s.jobs[jobId]);
  const lastError = useJobViews((s) => s.diagnostics[jobId]?.lastError ?? null);
  const started = view !== undefined && view.lastSeq > 0;
  const status = view?.status ?? "pending";
  const stages: StageView[] =
    started && view.stages.length > 0 ? view.stages : plannedStages.map((s) => ({ ...s, state: "pending" }));
  const current =
    started && view.stage !== null
      ? (view.stageLabel ?? stages.find((s) => s.id === view.stage)?.label ?? view.stage)
      : null;

  return (
    <section className="gg-panel" aria-busy={status === "pending" || status === "running"}>
      <header className="gg-head">
        <h2 className="gg-title">{view?.title ?? t.jobTitle}</h2>
        <p className="gg-status" role="status" data-status={status}>
          {started ? t.status[status] : t.starting}
        </p>
      </header>
      {/* no bar before the first events: a widget shown again must not flash back to 0 % */}
      {started && <ProgressBar percentage={view.percentage} />}
      {current !== null && status === "running" && <p className="gg-current">{t.now(current)}</p>}
      {started && view.message !== null && status === "running" && <p className="gg-muted">{view.message}</p>}
      {started && <JobTiming view={view} stageJustEntered={stageJustEntered(view)} />}
      <StageList stages={stages} />
      {lastError !== null && <FailureText error={lastError} role="status" />}
      {lastError?.transient && <p className="gg-muted">{t.retrying}</p>}
      {(status === "pending" || status === "running") && <CancelButton jobId={jobId} />}
      {status === "completed" && <JobResult jobId={jobId} summary={view?.summary ?? null} />}
      {status === "running" && view?.stage === "compose" && (view.processed ?? 0) > 0 && (
        <JobResult jobId={jobId} summary={null} running composed={view.processed ?? 0} />
      )}
      {status === "failed" && view?.error && (
        <div className="gg-outcome">
          <p>{t.failed}</p>
          <FailureText error={view.error} />
          {view.error.retryable && onRetry && (
            <button type="button" className="gg-button" onClick={onRetry}>
              {t.tryAgain}
            </button>
          )}
        </div>
      )}
      {status === "canceled" && <p className="gg-outcome">{t.canceled}</p>}
    </section>
  );
}

function CancelButton({ jobId }: { jobId: string }) {
  const t = useMessages();
  const host = useHost();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ToolFailure | null>(null);
  const cancel = async () => {
    setBusy(true);
    setError(null);
    const reply = await cancelJob(host, jobId);
    setBusy(false);
    if (!reply.ok) setError(reply.error);
  };
  return (
    <div className="gg-actions">
      <button type="button" className="gg-button gg-secondary" disabled={busy} onClick={() => void cancel()}>
        {busy ? t.canceling : t.cancel}
      </button>
      {error && <FailureText error={error} />}
    </div>
  );
}
