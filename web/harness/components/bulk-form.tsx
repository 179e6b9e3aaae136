/**
 * Calls `start_bulk_gift_analysis` with an occasion, a budget per person and the staff list, the
 * ways a model can pass one: `csv` text (typed, the bundled sample, or a CSV file read as text,
 * held as a chip and never put in the text area, so megabytes do not slow the page), or, in
 * ChatGPT mode, a file the person attached, as ChatGPT's file parameter (`file: { download_url,
 * file_id }`, handed over through the dev server's file service; MCP Apps hosts have no such
 * parameter). "Ask for the file in the widget" passes no list at all: the widget shows its picker.
 * The fields live in the store and survive a reload; a file too large to keep, or an attached one,
 * is then remembered by its name only and asks to be chosen again.
 */
import type { ChangeEvent, FormEvent } from "react";
import { STAFF_FILE_ACCEPT } from "../../../shared/files.js";
import { CurrencySchema } from "../../../shared/money.js";
import { TOOL } from "../../../shared/tools.js";
import type { ChosenFile } from "../memory.js";
import { rowCount } from "../recent-jobs.js";
import type { HarnessSession } from "../session.js";
import { useHarness, type HarnessStore } from "../store.js";
import { OccasionBudget } from "./occasion-budget.js";
import sampleCsv from "../sample-employees.csv?raw";

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Pauses between slices of work, in ms: a server started for development honours them. The
 * bundled sample (25 rows) is four slices, so it takes about four pauses.
 */
const PACES = [
  { value: 0, label: "Full speed" },
  { value: 150, label: "Brisk" },
  { value: 500, label: "Watchable" },
  { value: 1_000, label: "Slow" },
  { value: 3_000, label: "Very slow" },
] as const;

/** What a remembered file lacks after a reload, said beside it; null when it can be sent. */
function missingNote(file: ChosenFile): string | null {
  if (file.as === "csv") return file.text === null ? "Too large to keep across a reload: choose it again." : null;
  return file.file ? null : "An attached file is not kept across a reload: attach it again.";
}

type FormProps = { store: HarnessStore; session: HarnessSession };

/** Starts the analysis with what the form holds: the list as `csv` text, or an attached file handed over first. */
function useStartBulk({ store, session }: FormProps) {
  const { occasion, budget, currency, typed, file, paceMs } = useHarness(store, (s) => s.form);
  const chatgpt = useHarness(store, (s) => s.hostKind === "openai");
  const chosen = CurrencySchema.safeParse(currency);
  const args = {
    occasion: occasion.trim(),
    budgetPerPerson: Number(budget),
    ...(chosen.success && { currency: chosen.data }),
  };
  const start = async () => {
    if (file?.as !== "file") return session.runTool(TOOL.startBulk, { ...args, csv: file?.text ?? typed }, paceMs);
    const { setBusy, setProblem } = store.getState();
    if (!file.file) return;
    if (!chatgpt) return setProblem("An MCP Apps host passes no file to a tool: ask for the file in the widget.");
    setBusy(TOOL.startBulk);
    try {
      // as ChatGPT does for a tool declared with openai/fileParams: the file is hosted, its URL passed
      await session.runTool(TOOL.startBulk, { ...args, file: await session.handOverFile(file.file) }, paceMs);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      setBusy(null);
    }
  };
  /** "Ask for the file in the widget": no list at all. */
  const askInWidget = () => session.runTool(TOOL.startBulk, args, paceMs);
  return { start, askInWidget };
}

/** The staff list: the chosen file as a chip, or the text area for a typed CSV. */
function StaffList({ store }: { store: HarnessStore }) {
  const { typed, file } = useHarness(store, (s) => s.form);
  const setForm = store.getState().setForm;
  const missing = file && missingNote(file);
  if (!file) {
    return (
      <label className="field">
        <span>Employees CSV {typed.trim() && <em className="muted">{rowCount(typed)} rows</em>}</span>
        <textarea
          className="mono"
          rows={7}
          value={typed}
          onChange={(e) => setForm({ typed: e.target.value })}
          spellCheck={false}
          placeholder="name,department,interests,budget"
        />
      </label>
    );
  }
  return (
    <div className="field">
      <span>{file.as === "csv" ? "Employees CSV" : "Attached file (ChatGPT's file parameter)"}</span>
      <div className="file-chip" aria-label={file.as === "csv" ? "Uploaded CSV" : "Attached file"}>
        <span className="mono">{file.name}</span>
        <em className="muted">
          {size(file.bytes)}
          {file.rows !== null && ` · ${file.rows.toLocaleString("en-US")} rows`}
        </em>
        <button type="button" className="link" onClick={() => setForm({ file: null })}>
          Remove
        </button>
        {missing && <span className="file-missing">{missing}</span>}
      </div>
    </div>
  );
}

/** The ways to fill the list: the bundled sample, a CSV read as text, or (ChatGPT) a file attached as it is. */
function StaffListSources({ store }: { store: HarnessStore }) {
  const setForm = store.getState().setForm;
  const chatgpt = useHarness(store, (s) => s.hostKind === "openai");
  const take = async (e: ChangeEvent<HTMLInputElement>, as: ChosenFile["as"]) => {
    const chosen = e.target.files?.[0];
    e.target.value = "";
    if (!chosen) return;
    const base = { name: chosen.name, bytes: chosen.size };
    if (as === "file") return setForm({ file: { ...base, rows: null, as, text: null, file: chosen } });
    const text = await chosen.text();
    setForm({ file: { ...base, rows: rowCount(text), as, text } });
  };
  return (
    <div className="row wrap">
      {/* the sample's budgets are dollars: read in won for a Korean host, they would buy nothing */}
      <button
        type="button"
        className="button secondary"
        onClick={() => setForm({ file: null, typed: sampleCsv, currency: "USD" })}
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
  );
}

function PaceField({ store }: { store: HarnessStore }) {
  const paceMs = useHarness(store, (s) => s.form.paceMs);
  const setForm = store.getState().setForm;
  return (
    <>
      <label className="field">
        <span>Pace</span>
        <select
          value={paceMs}
          onChange={(e) => setForm({ paceMs: Number(e.target.value) })}
          aria-describedby="pace-hint"
        >
          {PACES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <p className="hint" id="pace-hint">
        Pauses between slices of work, honoured by a server started with GIFTGENIUS_DEV=1. The 25-row sample takes about
        0.6 s brisk, 2 s watchable, 4 s slow, 12 s very slow.
      </p>
    </>
  );
}

export function BulkForm({ store, session }: FormProps) {
  const { occasion, budget, currency = "", typed, file } = useHarness(store, (s) => s.form);
  const setForm = store.getState().setForm;
  const busy = useHarness(store, (s) => s.busy);
  const ready = useHarness(store, (s) => s.connection.status === "ready");
  const { start, askInWidget } = useStartBulk({ store, session });
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
        budgetLabel="Per person"
        currency={currency}
        onOccasion={(value) => setForm({ occasion: value })}
        onBudget={(value) => setForm({ budget: value })}
        onCurrency={(value) => setForm({ currency: value })}
      />
      <StaffList store={store} />
      <StaffListSources store={store} />
      <PaceField store={store} />
      <div className="row wrap">
        <button
          type="submit"
          className="button"
          disabled={!ready || busy !== null || Boolean(file && missingNote(file)) || (!file && !typed.trim())}
        >
          {busy === TOOL.startBulk ? "Starting…" : "Start bulk analysis"}
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={!ready || busy !== null}
          onClick={() => void askInWidget()}
        >
          Ask for the file in the widget
        </button>
      </div>
    </form>
  );
}
