/**
 * The job's stages in order, told apart by a mark, a colour, a hidden word and `aria-current` on
 * the active one.
 */
import type { StageView } from "../../../shared/job-view.js";
import { useMessages } from "../i18n.js";

const MARK: Record<StageView["state"], string> = { done: "✓", active: "●", pending: "○", failed: "✕", stopped: "■" };

export type StageListProps = { stages: StageView[] };

/** Lists `stages`, named in the widget's language (a stage it does not know, as the server named it). */
export function StageList({ stages }: StageListProps) {
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
