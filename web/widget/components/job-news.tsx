/**
 * The job's one polite live region: the stage that begins, a failure to reach the job, the end.
 * Its text never changes with the percentage, so a screen reader is not talked over.
 */
import type { JobFold } from "../../../shared/job-reducer.js";
import type { StageView } from "../../../shared/job-view.js";
import { useMessages, type Messages } from "../i18n.js";
import type { ToolFailure } from "../tool-reply.js";
import { failureMessage } from "./failure-text.js";

export type JobNewsProps = { view: JobFold | undefined; stages: StageView[]; lastError: ToolFailure | null };

/** What the region says now: the end, else a failure to reach the job, else the stage under way. */
function news(t: Messages, { view, stages, lastError }: JobNewsProps): string {
  if (view === undefined || view.lastSeq === 0) return "";
  const { status, stage } = view;
  if (status === "completed") return [t.completed, view.summary].filter(Boolean).join(" ");
  if (status === "failed") return `${t.failed} ${view.error ? failureMessage(t, view.error) : ""}`.trim();
  if (status === "canceled") return t.canceled;
  if (lastError !== null && !lastError.transient) return failureMessage(t, lastError);
  const at = stages.findIndex((s) => s.id === stage);
  return stage === null ? "" : t.stageNews(at + 1, stages.length, t.stageLabel(stage, view.stageLabel ?? stage));
}

export function JobNews(props: JobNewsProps) {
  const t = useMessages();
  return (
    <p className="gg-sr" role="status">
      {news(t, props)}
    </p>
  );
}
