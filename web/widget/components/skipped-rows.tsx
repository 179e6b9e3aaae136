/** The rows of a staff list that become no person, and why: in a file's preview and in the result. */
import type { SkippedRow } from "../../../shared/files.js";
import { dotted, useMessages } from "../i18n.js";

export type SkippedRowsProps = { rows: SkippedRow[]; more?: number };

export function SkippedRows({ rows, more = 0 }: SkippedRowsProps) {
  const t = useMessages();
  if (rows.length === 0) return null;
  return (
    <section aria-label={t.skipped}>
      <h2 className="gg-subtitle">{t.skipped}</h2>
      <ul className="gg-skipped">
        {rows.map((s) => (
          <li key={s.row}>
            <strong>{dotted(t.row(s.row), s.name, s.department)}</strong>: {s.reason}
          </li>
        ))}
        {more > 0 && <li className="gg-muted">{t.moreSkipped(more)}</li>}
      </ul>
    </section>
  );
}
