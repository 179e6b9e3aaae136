/**
 * One job as a person sees it, laid out for where it is shown: status, bar, stage, timing, stages,
 * Cancel (asked twice), the result, a failure with "Try again" or a cancel with "Start again".
 */
import { useEffect, useState } from "react";
import type { Stage } from "../../../shared/job-events.js";
import type { JobFold } from "../../../shared/job-reducer.js";
import { isFinished, type JobView, type StageView } from "../../../shared/job-view.js";
import { isBulkStage, STAGE_UNIT } from "../../../shared/stage-words.js";
import { CancelJobOutput, TOOL } from "../../../shared/tools.js";
import type { DisplayMode } from "../../host-globals.js";
import { followUpOn, setFollowUpOn } from "../conversation.js";
import { useHost, useHostGlobal } from "../host-context.js";
import { useMessages, type Messages } from "../i18n.js";
import { useJobViews } from "../job-views.js";
import type { ToolFailure } from "../tool-reply.js";
import { Button } from "./button.js";
import { FailureText, failureMessage } from "./failure-text.js";
import { useCall } from "./use-call.js";
import { JobResult, type ResultLayout } from "./job-result.js";
import { JobTiming } from "./job-timing.js";
import { ProgressBar } from "./progress-bar.js";

export type JobPanelProps = {
  jobId: string;
  /** Shown until the first event arrives. */
  plannedStages: Stage[];
  /** Present when the original input is known. */
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
      <p className="gg-sr" role="status">
        {news(t, view, stages, lastError)}
      </p>
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
          {!isFinished(status) && <FollowUpToggle />}
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
          {again && onRetry && <Button onClick={onRetry}>{again}</Button>}
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

/** Cards without fullscreen, a short card inline where it has one, the table in fullscreen, progress alone in pip. */
function layoutOf(mode: DisplayMode, modes: readonly DisplayMode[]): ResultLayout | "pip" {
  if (mode === "pip") return "pip";
  if (mode === "fullscreen") return "table";
  return modes.includes("fullscreen") ? "compact" : "cards";
}

/** The current stage and its own count ("Matching gifts per person: 1,240 of 3,000 people"), never a bare "0 of". */
function stageLine(t: Messages, view: JobView, stages: StageView[]): string | null {
  const id = view.stage;
  if (id === null) return null;
  const label = t.stageLabel(id, view.stageLabel ?? stages.find((s) => s.id === id)?.label ?? id);
  if (view.processed === null || view.total === null) return label;
  return t.stageLine(label, t.stageCount(isBulkStage(id) ? STAGE_UNIT[id] : null, view.processed, view.total));
}

function CancelButton({ jobId }: { jobId: string }) {
  const t = useMessages();
  const host = useHost();
  const [asking, setAsking] = useState(false);
  // the loop then sees `job.canceled` arrive like any other event
  const { busy, error, run } = useCall(async () => {
    const reply = await host.callTool(TOOL.cancelJob, { jobId }, CancelJobOutput);
    setAsking(false);
    return reply;
  });
  return (
    <div className="gg-actions" role="group" aria-label={asking ? t.cancelQuestion : undefined}>
      {asking ? (
        <>
          <span className="gg-question">{t.cancelQuestion}</span>
          <Button kind="danger" disabled={busy} onClick={() => void run()}>
            {busy ? t.canceling : t.cancelYes}
          </Button>
          <Button kind="secondary" disabled={busy} onClick={() => setAsking(false)}>
            {t.keepGoing}
          </Button>
        </>
      ) : (
        <Button kind="secondary" onClick={() => setAsking(true)}>
          {t.cancel}
        </Button>
      )}
      {error && <FailureText error={error} />}
    </div>
  );
}

/** The one polite live region: the end, a failure, or the stage that begins; never the percentage (not talked over). */
function news(t: Messages, view: JobFold | undefined, stages: StageView[], lastError: ToolFailure | null): string {
  if (view === undefined || view.lastSeq === 0) return "";
  const { status, stage } = view;
  if (status === "completed") return [t.completed, view.summary].filter(Boolean).join(" ");
  if (status === "failed") return `${t.failed} ${view.error ? failureMessage(t, view.error) : ""}`.trim();
  if (status === "canceled") return t.canceled;
  if (lastError !== null && !lastError.transient) return failureMessage(t, lastError);
  const at = stages.findIndex((s) => s.id === stage);
  return stage === null ? "" : t.stageNews(at + 1, stages.length, t.stageLabel(stage, view.stageLabel ?? stage));
}

const MARK: Record<StageView["state"], string> = { done: "✓", active: "●", pending: "○", failed: "✕", stopped: "■" };

/** The stages told apart by a mark, a colour, a hidden word and `aria-current` on the active one. */
function StageList({ stages }: { stages: StageView[] }) {
  const t = useMessages();
  if (stages.length === 0) return null;
  return (
    <ol className="gg-stages" aria-label={t.stages}>
      {stages.map((s) => (
        <li
          key={s.id}
          className="gg-stage"
          data-state={s.state}
          aria-current={s.state === "active" ? "step" : undefined}
        >
          <span className="gg-stage-mark" aria-hidden="true">
            {MARK[s.state]}
          </span>
          <span className="gg-stage-label">{t.stageLabel(s.id, s.label)}</span>
          <span className="gg-sr"> ({t.stageState[s.state]})</span>
        </li>
      ))}
    </ol>
  );
}

/** Shown while the job runs where the host takes follow-ups; the choice is kept for the next jobs too. */
function FollowUpToggle() {
  const t = useMessages();
  const host = useHost();
  const [on, setOn] = useState(followUpOn);
  if (!host.conversation().followUp) return null;
  return (
    <p className="gg-muted">
      <label>
        <input
          type="checkbox"
          checked={on}
          onChange={(e) => {
            setFollowUpOn(e.target.checked);
            setOn(e.target.checked);
          }}
        />{" "}
        {t.tellChat}
      </label>
    </p>
  );
}
