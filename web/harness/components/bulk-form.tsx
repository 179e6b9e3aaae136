/**
 * Calls `start_bulk_gift_analysis` with an occasion, a budget per person and the staff list, the
 * ways a model can pass one: `csv` text (typed, the bundled sample, or a CSV file read as text,
 * held as a chip and never put in the text area, so megabytes do not slow the page), or, in
 * ChatGPT mode, a file the person attached, as ChatGPT's file parameter (`file: { download_url,
 * file_id }`, handed over through the dev server's file service; MCP Apps hosts have no such
 * parameter). "Ask for the file in the widget" passes no list at all: the widget shows its picker.
 */
import { useState, type ChangeEvent, type FormEvent } from "react";
import { STAFF_FILE_ACCEPT } from "../../../shared/files.js";
import { PACE_META_KEY, TOOL } from "../../../shared/tools.js";
import type { HarnessSession } from "../session.js";
import { useHarness, type HarnessStore } from "../store.js";
import { OccasionBudget } from "./occasion-budget.js";
import sampleCsv from "../sample-employees.csv?raw";

/** Data rows in a CSV: non-blank lines after the header (a rough count, for the label only). */
const rowCount = (csv: string) => Math.max(0, csv.split(/\r?\n/).filter((l) => l.trim()).length - 1);
const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A file read as `csv` text, or one attached to go as ChatGPT's file parameter. */
type Chosen = { name: string; bytes: number; rows: number | null } & (
  { as: "csv"; text: string } | { as: "file"; file: File }
);

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
  const [file, setFile] = useState<Chosen | null>(null);
  const [pace, setPace] = useState<number>(0);
  const busy = useHarness(store, (s) => s.busy);
  const ready = useHarness(store, (s) => s.connection.status === "ready");
  const chatgpt = useHarness(store, (s) => s.hostKind === "openai");

  const take = async (e: ChangeEvent<HTMLInputElement>, as: Chosen["as"]) => {
    const chosen = e.target.files?.[0];
    e.target.value = "";
    if (!chosen) return;
    const base = { name: chosen.name, bytes: chosen.size };
    if (as === "file") return setFile({ ...base, rows: null, as, file: chosen });
    const text = await chosen.text();
    setFile({ ...base, rows: rowCount(text), as, text });
  };
  const args = { occasion: occasion.trim(), budgetPerPerson: Number(budget) };
  const meta = pace > 0 ? { [PACE_META_KEY]: pace } : undefined;
  const start = async () => {
    if (file?.as !== "file") return session.runTool(TOOL.startBulk, { ...args, csv: file?.text ?? typed }, meta);
    const { setBusy, setProblem } = store.getState();
    if (!chatgpt) return setProblem("An MCP Apps host passes no file to a tool: ask for the file in the widget.");
    setBusy(TOOL.startBulk);
    try {
      // as ChatGPT does for a tool declared with openai/fileParams: the file is hosted, its URL passed
      await session.runTool(TOOL.startBulk, { ...args, file: await session.handOverFile(file.file) }, meta);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      setBusy(null);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void start();
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
          <span>{file.as === "csv" ? "Employees CSV" : "Attached file (ChatGPT's file parameter)"}</span>
          <div className="file-chip" aria-label={file.as === "csv" ? "Uploaded CSV" : "Attached file"}>
            <span className="mono">{file.name}</span>
            <em className="muted">
              {size(file.bytes)}
              {file.rows !== null && ` · ${file.rows.toLocaleString("en-US")} rows`}
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
      <div className="row wrap">
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
          <input type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void take(e, "csv")} />
        </label>
        <label
          className={`button secondary file ${chatgpt ? "" : "disabled"}`}
          title={chatgpt ? "Sent as ChatGPT's file parameter" : "MCP Apps hosts have no file parameter"}
        >
          Attach a file…
          <input type="file" accept={STAFF_FILE_ACCEPT} disabled={!chatgpt} onChange={(e) => void take(e, "file")} />
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
      <div className="row wrap">
        <button type="submit" className="button" disabled={!ready || busy !== null || (!file && !typed.trim())}>
          {busy === TOOL.startBulk ? "Starting…" : "Start bulk analysis"}
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={!ready || busy !== null}
          onClick={() => void session.runTool(TOOL.startBulk, args, meta)}
        >
          Ask for the file in the widget
        </button>
      </div>
    </form>
  );
}
