/**
 * What the server understood of an uploaded staff file before the job starts: how it read it, a
 * select per column, the first rows, the counts, the rows skipped and what must be settled first.
 */
import { listed } from "../../../shared/format.js";
import { COLUMN_KEYS, type Reading, type StaffPreview, type TextEncoding } from "../../../shared/files.js";
import { dotted, useMessages } from "../i18n.js";
import type { FileFlowState } from "../file-flow.js";
import { Button } from "./button.js";
import { FailureText } from "./failure-text.js";
import { SkippedRows } from "./skipped-rows.js";

const ENCODINGS: Record<TextEncoding, string> = {
  "utf-8": "UTF-8",
  "utf-16le": "UTF-16 LE",
  "utf-16be": "UTF-16 BE",
  "euc-kr": "CP949 / EUC-KR",
  "windows-1252": "Windows-1252",
};

/** First rows shown: enough to check the columns, few enough that Start stays in an inline frame. */
const SAMPLE_ROWS = 5;

/** The flow's preview step as it stands, and what the person does next. */
export type FilePreviewProps = Omit<Extract<FileFlowState, { step: "preview" }>, "step" | "uploadId"> & {
  onReading(reading: Reading): void;
  onStart(): void;
  onBack(): void;
};

type ChoiceProps = {
  label: string;
  value: string;
  options: [string, string][];
  onChange(value: string): void;
  /** A choice the person still has to make. */
  ask?: boolean;
};

function Choice({ label, value, options, onChange, ask }: ChoiceProps) {
  return (
    <label className="gg-field">
      {label}
      <select value={value} aria-invalid={ask} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

type ReadingProps = { preview: StaffPreview; reading: Reading; unsure: boolean; onReading(reading: Reading): void };

function ReadingChoices({ preview: p, reading, unsure, onReading }: ReadingProps) {
  const t = useMessages();
  return (
    <div className="gg-fields">
      {p.format === "csv" && (
        <Choice
          label={t.encoding}
          ask={unsure}
          value={unsure ? "" : (p.encoding ?? "")}
          options={[...(unsure ? [["", t.choose] as [string, string]] : []), ...Object.entries(ENCODINGS)]}
          onChange={(v) => onReading({ ...reading, encoding: v as TextEncoding })}
        />
      )}
      {p.format === "xlsx" && p.sheets.length > 0 && (
        <Choice
          label={t.sheet}
          value={p.sheet ?? ""}
          options={p.sheets.map((s): [string, string] => [s.name, `${s.name} (${s.rows.toLocaleString()})`])}
          onChange={(sheet) => onReading({ sheet })}
        />
      )}
      {COLUMN_KEYS.map((key) => (
        <Choice
          key={key}
          label={t.columns[key]}
          value={String(p.columns[key])}
          options={[["-1", t.noColumn], ...p.headers.map((h, i): [string, string] => [String(i), h || `#${i + 1}`])]}
          onChange={(v) => onReading({ ...reading, columns: { ...p.columns, [key]: Number(v) } })}
        />
      ))}
    </div>
  );
}

const DUPLICATES_SHOWN = 3;

/** Namesakes without an ID: kept apart unless the person merges them; once merged, the way back. */
function PossibleDuplicates({ preview: p, reading, onReading }: Omit<ReadingProps, "unsure">) {
  const t = useMessages();
  const merged = reading.mergeDuplicates === true;
  if (!merged && p.possibleDuplicateCount === 0) return null;
  return (
    <div className="gg-hint">
      <p>{merged ? t.duplicatesMerged : t.possibleDuplicates(p.possibleDuplicateCount)}</p>
      {!merged && (
        <ul>
          {p.possibleDuplicates.slice(0, DUPLICATES_SHOWN).map((g) => (
            <li key={g.rows[0]}>{t.duplicateRows(g.name, g.department, g.rows.join(", "))}</li>
          ))}
        </ul>
      )}
      <Button kind="secondary" onClick={() => onReading({ ...reading, mergeDuplicates: !merged })}>
        {merged ? t.keepApart : t.mergeDuplicates}
      </Button>
    </div>
  );
}

function SampleRows({ sample, columns }: { sample: StaffPreview["sample"]; columns: StaffPreview["columns"] }) {
  const t = useMessages();
  const keys = COLUMN_KEYS.filter((key) => key !== "id" || columns.id !== -1);
  return (
    // a box that scrolls sideways takes the keyboard's focus, so arrows scroll it
    <div className="gg-scroll" role="region" aria-label={t.firstRows} tabIndex={0}>
      <table className="gg-table">
        <thead>
          <tr>
            <th>{t.rowHead}</th>
            {keys.map((key) => (
              <th key={key}>{t.columns[key]}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sample.slice(0, SAMPLE_ROWS).map((r) => (
            <tr key={r.row}>
              <td>{r.row}</td>
              {keys.map((key) => (
                <td key={key}>{r[key] ?? ""}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function FilePreview(props: FilePreviewProps) {
  const { preview: p, fileName, reading, busy, error, onReading, onStart, onBack } = props;
  const t = useMessages();
  // an encoding that was only guessed is asked for: picking even the guessed one confirms it
  const unsure = p !== null && !p.encodingCertain && reading.encoding === undefined;
  return (
    <section className="gg-panel" aria-busy={busy}>
      {/* a file that could not be read is named, not still "being read" */}
      <h1 className="gg-title">{p?.fileName ?? (busy ? t.readingFile : fileName)}</h1>
      {p && (
        <>
          <p className="gg-muted">
            {dotted(
              p.format === "xlsx" ? "Excel" : "CSV",
              p.encoding && ENCODINGS[p.encoding],
              p.separator && t.separator(p.separator),
              p.currency && t.budgetsIn(p.currency),
            )}
          </p>
          <p>{t.fileCounts(p.rows, p.people, p.skippedCount)}</p>
          {p.lowBudgets && (
            <p className="gg-hint">
              {t.lowBudgets(
                p.lowBudgets.count,
                t.price(p.lowBudgets.cheapest, p.currency),
                p.currency ?? "USD",
                listed(p.lowBudgets.rows, p.lowBudgets.count),
              )}
            </p>
          )}
          <ReadingChoices preview={p} reading={reading} unsure={unsure} onReading={onReading} />
          {unsure && <p className="gg-hint">{t.encodingUnsure}</p>}
          <SampleRows sample={p.sample} columns={p.columns} />
          <PossibleDuplicates preview={p} reading={reading} onReading={onReading} />
          <SkippedRows rows={p.skipped} more={p.skippedCount - p.skipped.length} />
          {p.problems.length > 0 && (
            <ul className="gg-error" role="alert">
              {p.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
        </>
      )}
      {busy && <p className="gg-muted">{t.loading}</p>}
      {error && <FailureText error={error} />}
      <div className="gg-actions">
        {p && (
          <Button disabled={busy || !p.ready} onClick={onStart}>
            {t.start}
          </Button>
        )}
        <Button kind="secondary" onClick={onBack}>
          {t.otherFile}
        </Button>
      </div>
    </section>
  );
}
