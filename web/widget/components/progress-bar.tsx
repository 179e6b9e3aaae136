/** An ARIA progressbar (0–100, rounded) with the percentage as text too, the same to the ear and the eye. */
import type { JobStatus } from "../../../shared/job-view.js";
import { useMessages } from "../i18n.js";

export type ProgressBarProps = {
  percentage: number;
  label?: string;
  /** The job's state, whose colour the fill takes. */
  status?: JobStatus;
};

export function ProgressBar({ percentage, label, status }: ProgressBarProps) {
  const t = useMessages();
  const value = Math.round(Math.min(100, Math.max(0, percentage)));
  return (
    <div className="gg-progress" data-status={status}>
      <div
        className="gg-bar"
        role="progressbar"
        aria-label={label ?? t.progress}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={t.percent(value)}
      >
        <div className="gg-bar-fill" style={{ width: `${value}%` }} />
      </div>
      <span className="gg-percent">{t.percent(value)}</span>
    </div>
  );
}
