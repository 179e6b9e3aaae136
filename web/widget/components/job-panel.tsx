/**
 * One job as a person sees it, laid out for where it is shown (`layoutOf`): status, bar, what is
 * happening, timing, stages, Cancel (asked twice), the result, the failure with "Try again", or
 * the people kept after a cancel with "Start again". One live region (job-news.tsx) tells stage
 * changes and the end; in fullscreen, Escape asks for the inline card. It only selects and renders.
 */
import { useEffect, useState } from "react";
import type { Stage } from "../../../shared/job-events.js";
import type { JobView, StageView } from "../../../shared/job-view.js";
import { isBulkStage, STAGE_UNIT } from "../../../shared/stage-words.js";
import { CancelJobOutput, TOOL } from "../../../shared/tools.js";
import type { DisplayMode } from "../../host-globals.js";
import { useHost, useHostGlobal } from "../host-context.js";
import { useMessages, type Messages } from "../i18n.js";
import { useJobViews } from "../job-views.js";
import type { ToolFailure } from "../tool-reply.js";
import { FailureText } from "./failure-text.js";
import { FollowUpToggle } from "./follow-up-toggle.js";
import { JobResult, type ResultLayout } from "./job-result.js";
import { JobNews } from "./job-news.js";
import { JobTiming } from "./job-timing.js";
import { ProgressBar } from "./progress-bar.js";
import { StageList } from "./stage-list.js";

export type JobPanelProps = {
  jobId: string;
  /** The plan announced by start_bulk_gift_analysis, shown until the first event arrives. */
  plannedStages: Stage[];
  /** Present when the original input is known: starts the analysis again after a failure or a cancel. */
  onRetry?: () => void;
};

export function JobPanel({ jobId, plannedStages, onRetry }: JobPanelProps) {
  const t = useMessages();
  const mode = useHostGlobal("displayMode");
  const layout = layoutOf(mode, useHostGlobal("displayModes"));
  useEscapeToInline(mode === "fullscreen");
  const view = useJobViews((s) => s.jobs[jobId]);
  const lastError = useJobViews((s) => s.diagnostics[jobId]?.lastError ?? null);
  const started = view !== undefined && view.lastSeq > 0;
  const status = view?.status ?? "pending";
  const stages: StageView[] =
    started && view.stages.length > 0 ? view.stages : plannedStages.map((s) => ({ ...s, state: "pending" }));
  const line = started && status === "running" ? stageLine(t, view, stages) : null;
  // while the job composes, the people composed so far
  const composing = status === "running" && view?.stage === "compose" && (view.processed ?? 0) > 0;
  const again = status === "canceled" ? t.startAgain : view?.error?.retryable ? t.tryAgain : null;

  return (
    // not aria-busy while it runs: a busy region's live news waits for the end
    <section className="gg-panel">
      <header className="gg-head">
        <h1 className="gg-title">{view?.title ?? t.jobTitle}</h1>
        <p className="gg-status" data-status={status}>
          {started ? t.status[status] : t.starting}
        </p>
      </header>
      <JobNews view={view} stages={stages} lastError={lastError} />
      {/* no bar before the first events: a widget shown again must not flash back to 0 % */}
      {started && <ProgressBar percentage={view.percentage} status={status} />}
      {line !== null && <p className="gg-current">{line}</p>}
      {layout === "pip" ? null : (
        <>
          {started && <JobTiming view={view} reconnecting={lastError?.transient === true} />}
          {layout !== "compact" && <StageList stages={stages} />}
          {/* a dropped reply is retried: said in the timing line, so nothing below moves */}
          {lastError !== null && !lastError.transient && <FailureText error={lastError} role="none" />}
          {(status === "pending" || status === "running") && <CancelButton jobId={jobId} />}
          <FollowUpToggle jobId={jobId} />
          {(status === "completed" || composing) && view && (
            <JobResult
              jobId={jobId}
              summary={view.summary}
              currency={view.currency}
              running={composing}
              composed={view.processed ?? 0}
              layout={layout}
            />
          )}
        </>
      )}
      {(status === "canceled" || (status === "failed" && view?.error)) && (
        <div className="gg-outcome">
          <p>{status === "failed" ? t.failed : t.canceled}</p>
          {view?.error && <FailureText error={view.error} role="none" />}
          {again && onRetry && (
            <button type="button" className="gg-button" onClick={onRetry}>
              {again}
            </button>
          )}
        </div>
      )}
      {status === "canceled" && layout !== "pip" && (
        <JobResult jobId={jobId} summary={null} currency={view?.currency} stopped layout={layout} />
      )}
    </section>
  );
}

/** While `on`, Escape (not one that clears a search) asks the host for the inline card. */
function useEscapeToInline(on: boolean) {
  const host = useHost();
  useEffect(() => {
    if (!on) return;
    const leave = (e: KeyboardEvent) => {
      const field = e.target;
      const clears = field instanceof HTMLInputElement && field.type === "search" && field.value !== "";
      if (e.key !== "Escape" || e.defaultPrevented || clears) return;
      void host.requestDisplayMode("inline").catch(() => undefined);
    };
    document.addEventListener("keydown", leave);
    return () => document.removeEventListener("keydown", leave);
  }, [host, on]);
}

/**
 * Cards where the host has no fullscreen, a short card inline where it has, the table in
 * fullscreen, the progress alone in picture-in-picture.
 */
function layoutOf(mode: DisplayMode, modes: readonly DisplayMode[]): ResultLayout | "pip" {
  if (mode === "pip") return "pip";
  if (mode === "fullscreen") return "table";
  return modes.includes("fullscreen") ? "compact" : "cards";
}

/**
 * The current stage in the widget's language and its own count ("Matching gifts per person: 1,240
 * of 3,000 people"), so a stage change starts again under the new name, never as a bare "0 of".
 */
function stageLine(t: Messages, view: JobView, stages: StageView[]): string | null {
  const id = view.stage;
  if (id === null) return null;
  const label = t.stageLabel(id, view.stageLabel ?? stages.find((s) => s.id === id)?.label ?? id);
  if (view.processed === null || view.total === null) return label;
  return t.stageLine(label, t.stageCount(isBulkStage(id) ? STAGE_UNIT[id] : null, view.processed, view.total));
}

/** Cancel, asked once more before the work done so far is thrown away. */
function CancelButton({ jobId }: { jobId: string }) {
  const t = useMessages();
  const host = useHost();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ToolFailure | null>(null);
  const cancel = async () => {
    setBusy(true);
    setError(null);
    // the loop then sees `job.canceled` arrive like any other event
    const reply = await host.callTool(TOOL.cancelJob, { jobId }, CancelJobOutput);
    setBusy(false);
    setAsking(false);
    if (!reply.ok) setError(reply.error);
  };
  return (
    <div className="gg-actions" role="group" aria-label={asking ? t.cancelQuestion : undefined}>
      {asking ? (
        <>
          <span className="gg-question">{t.cancelQuestion}</span>
          <button type="button" className="gg-button gg-danger" disabled={busy} onClick={() => void cancel()}>
            {busy ? t.canceling : t.cancelYes}
          </button>
          <button type="button" className="gg-button gg-secondary" disabled={busy} onClick={() => setAsking(false)}>
            {t.keepGoing}
          </button>
        </>
      ) : (
        <button type="button" className="gg-button gg-secondary" onClick={() => setAsking(true)}>
          {t.cancel}
        </button>
      )}
      {error && <FailureText error={error} />}
    </div>
  );
}
