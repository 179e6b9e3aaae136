/**
 * Calls `start_bulk_gift_analysis` with an occasion, a budget per person and a CSV, which can be
 * the bundled sample (one click, editable) or an uploaded file, held as a chip (name, size, rows)
 * and never put in the text area, so a file of megabytes does not slow the page down.
 */
import { useState, type ChangeEvent, type FormEvent } from "react";
import { PACE_META_KEY, TOOL } from "../../../shared/tools.js";
import type { HarnessSession } from "../session.js";
import { useHarness, type HarnessStore } from "../store.js";
import { OccasionBudget } from "./occasion-budget.js";
import sampleCsv from "../sample-employees.csv?raw";

/** Data rows in a CSV: non-blank lines after the header (a rough count, for the label only). */
const rowCount = (csv: string) => Math.max(0, csv.split(/\r?\n/).filter((l) => l.trim()).length - 1);
const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

type CsvFile = { name: string; bytes: number; rows: number; text: string };

/** Pauses between slices of work, in ms: a server started for development honours them. */
const PACES = [
  { value: 0, label: "Full speed" },
  { value: 40, label: "Watchable" },
  { value: 150, label: "Slow" },
  { value: 500, label: "Very slow" },
] as const;

export function BulkForm({ store, session }: { store: HarnessStore; session: HarnessSession }) {
  const [occasion, setOccasion] = useState("Year-end thank you");
  const [budget, setBudget] = useState("60");
  const [typed, setTyped] = useState("");
  const [file, setFile] = useState<CsvFile | null>(null);
  const [pace, setPace] = useState<number>(0);
  const csv = file?.text ?? typed;
  const busy = useHarness(store, (s) => s.busy);
  const ready = useHarness(store, (s) => s.connection.status === "ready");

  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) {
      const text = await file.text();
      setFile({ name: file.name, bytes: file.size, rows: rowCount(text), text });
    }
    e.target.value = "";
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void session.runTool(
      TOOL.startBulk,
      { occasion: occasion.trim(), budgetPerPerson: Number(budget), csv },
      pace > 0 ? { [PACE_META_KEY]: pace } : undefined,
    );
  };

  return (
    <form className="card" onSubmit={submit} aria-label="Bulk gift analysis">
      <h2>start_bulk_gift_analysis</h2>
      <OccasionBudget
        occasion={occasion}
        budget={budget}
        budgetLabel="Per person ($)"
        onOccasion={setOccasion}
        onBudget={setBudget}
      />
      {file ? (
        <div className="field">
          <span>Employees CSV</span>
          <div className="file-chip" aria-label="Uploaded CSV">
            <span className="mono">{file.name}</span>
            <em className="muted">
              {size(file.bytes)} · {file.rows.toLocaleString("en-US")} rows
            </em>
            <button type="button" className="link" onClick={() => setFile(null)}>
              Remove
            </button>
          </div>
        </div>
      ) : (
        <label className="field">
          <span>Employees CSV {typed.trim() && <em className="muted">{rowCount(typed)} rows</em>}</span>
          <textarea
            className="mono"
            rows={7}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            spellCheck={false}
            placeholder="name,department,interests,budget"
          />
        </label>
      )}
      <div className="row">
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            setFile(null);
            setTyped(sampleCsv);
          }}
        >
          Load sample CSV
        </button>
        <label className="button secondary file">
          Upload…
          <input type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void upload(e)} />
        </label>
      </div>
      <label className="field">
        <span>Pace</span>
        <select value={pace} onChange={(e) => setPace(Number(e.target.value))} aria-describedby="pace-hint">
          {PACES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <p className="hint" id="pace-hint">
        Pauses between slices of work, honoured by a server started with GIFTGENIUS_DEV=1.
      </p>
      <button type="submit" className="button" disabled={!ready || busy !== null || !csv.trim()}>
        {busy === TOOL.startBulk ? "Starting…" : "Start bulk analysis"}
      </button>
    </form>
  );
}
